"""Your own tools. Add a tool: write a function (its docstring is what the model reads; type hints
are its arguments) and append it to :data:`USER_TOOLS`. That is all: the graph binds every tool listed
here, and the ``tools`` node runs them.

A tool that needs the run's user or clock takes ``runtime: ToolRuntime`` as a parameter; it is filled
by the graph, hidden from the model, so the model can never name another user. A tool that raises
gives the model an error message (``Error: ...``), not a failed turn. Tools must not write long-term
memory: what the user wants remembered goes through ``propose_facts`` and approval.
"""

from __future__ import annotations

import ast
import operator

from langgraph.prebuilt import ToolRuntime

from memory_agent.graph.context import AgentContext

#: Longest arithmetic expression :func:`calculator` evaluates, in characters.
MAX_EXPRESSION_CHARS = 200
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
              ast.USub: operator.neg, ast.UAdd: operator.pos}


def current_time(runtime: ToolRuntime[AgentContext]) -> str:
    """The current date and time (UTC, ISO 8601) and the weekday. Use it for any question about today's
    date, the time or the day of the week."""
    now = runtime.context.clock()
    return f"{now.isoformat(timespec='seconds')} ({now.strftime('%A')})"


def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression with + - * / // % ** and parentheses, e.g. "12 * (3 + 4)"."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ValueError(f"the expression is over {MAX_EXPRESSION_CHARS} characters")
    return str(_evaluate(ast.parse(expression.strip(), mode="eval").body))


def _evaluate(node: ast.AST) -> float | int:
    """Numbers and the operators of :data:`_OPERATORS` only; anything else raises ``ValueError``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 100:
            raise ValueError("exponent too large (at most 100)")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    raise ValueError(f"not an arithmetic expression: {ast.unparse(node)!r}")


#: The user's own tools, bound to the model with the memory tools (``memory_agent.tools.registry``).
USER_TOOLS = [current_time, calculator]

"""One file per graph node. Each ``make_<node>(...)`` binds the node to its dependencies."""

from memory_agent.nodes.answer import after_answer, make_answer
from memory_agent.nodes.commit import make_commit
from memory_agent.nodes.human_approval import make_human_approval
from memory_agent.nodes.load_memory import make_load_memory
from memory_agent.nodes.propose_facts import make_propose_facts
from memory_agent.nodes.tools import make_tools

__all__ = ["after_answer", "make_answer", "make_commit", "make_human_approval", "make_load_memory",
           "make_propose_facts", "make_tools"]

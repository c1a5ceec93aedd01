"""One file per graph node. Each ``make_<node>(...)`` binds the node to its dependencies."""

from nodes.answer import make_answer
from nodes.commit import make_commit
from nodes.human_approval import make_human_approval
from nodes.load_memory import make_load_memory
from nodes.propose_facts import make_propose_facts

__all__ = ["make_answer", "make_commit", "make_human_approval", "make_load_memory", "make_propose_facts"]

"""Server components."""

from .counter_environment import CounterEnvironment

__all__ = ["CounterEnvironment"]

"""Counter environment (EnvStudio export)."""

from .client import CounterEnv
from .models import CounterAction, CounterObservation

__all__ = ["CounterAction", "CounterObservation", "CounterEnv"]

class Counter:
    def __init__(self, init_config=None):
        self.count = 0
        self.log = []

    def get_count(self) -> dict:
        """Return the counter."""
        return {"success": True, "data": self.count}

    def add(self, amount: int, note: str = "") -> dict:
        """Add to the counter.

        Args:
            amount: How much to add (may be negative).
            note: Optional note kept in the log.
        """
        self.count += amount
        self.log.append(note)
        return {"success": True, "data": self.count}


ENV_CLASS_NAME = "Counter"

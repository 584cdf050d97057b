__all__ = ["data", "model", "trainer"]

"""Bounded capture of a child's stdout or stderr: the head and the tail are kept."""


class HeadTail:
    """Keeps the first and last `limit // 2` bytes of a stream and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.head_limit = max(limit // 2, 0)
        self.tail_limit = max(limit - self.head_limit, 0)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data and self.tail_limit:
            self.tail += data
            if len(self.tail) > self.tail_limit:
                del self.tail[: len(self.tail) - self.tail_limit]

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        head = self.head.decode("utf-8", errors="replace")
        tail = self.tail.decode("utf-8", errors="replace")
        if cut <= 0:
            return head + tail
        return f"{head}\n[... {cut} bytes cut]\n{tail}"

from enum import StrEnum

class ButtonStyle(StrEnum):
    FILLED = "FILLED"
    OUTLINED = "OUTLINED"
    TEXT = "TEXT"

    def __str__(self) -> str:
        return str(self.value)

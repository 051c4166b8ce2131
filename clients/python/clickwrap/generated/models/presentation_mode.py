from enum import StrEnum

class PresentationMode(StrEnum):
    DIALOG = "DIALOG"
    INLINE = "INLINE"

    def __str__(self) -> str:
        return str(self.value)

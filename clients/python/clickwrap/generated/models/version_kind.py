from enum import StrEnum

class VersionKind(StrEnum):
    MAJOR = "MAJOR"
    MINOR = "MINOR"

    def __str__(self) -> str:
        return str(self.value)

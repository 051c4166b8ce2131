from enum import StrEnum

class VersionState(StrEnum):
    EFFECTIVE = "EFFECTIVE"
    SCHEDULED = "SCHEDULED"
    SUPERSEDED = "SUPERSEDED"

    def __str__(self) -> str:
        return str(self.value)

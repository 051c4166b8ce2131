from enum import StrEnum

class OperatorRole(StrEnum):
    ADMIN = "ADMIN"
    VIEWER = "VIEWER"

    def __str__(self) -> str:
        return str(self.value)

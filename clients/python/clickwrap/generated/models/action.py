from enum import StrEnum

class Action(StrEnum):
    ACCEPTED = "ACCEPTED"
    DECLINED = "DECLINED"

    def __str__(self) -> str:
        return str(self.value)

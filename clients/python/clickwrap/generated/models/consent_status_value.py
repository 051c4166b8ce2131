from enum import StrEnum

class ConsentStatusValue(StrEnum):
    ACCEPTED = "ACCEPTED"
    DECLINED = "DECLINED"
    NO_DATA = "NO_DATA"
    UNVERIFIED = "UNVERIFIED"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class AgreementMode(StrEnum):
    CHECKBOX = "CHECKBOX"
    SCROLL = "SCROLL"

    def __str__(self) -> str:
        return str(self.value)

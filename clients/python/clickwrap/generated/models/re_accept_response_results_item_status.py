from enum import StrEnum

class ReAcceptResponseResultsItemStatus(StrEnum):
    RE_ACCEPT_REQUESTED = "RE_ACCEPT_REQUESTED"
    SKIPPED = "SKIPPED"

    def __str__(self) -> str:
        return str(self.value)

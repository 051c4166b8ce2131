from enum import StrEnum

class Language(StrEnum):
    DE = "de"
    EN = "en"
    ES = "es"
    FR = "fr"
    HI = "hi"
    RU = "ru"
    ZH = "zh"

    def __str__(self) -> str:
        return str(self.value)

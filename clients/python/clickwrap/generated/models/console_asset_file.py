from enum import StrEnum

class ConsoleAssetFile(StrEnum):
    CONSOLE_CSS = "console.css"
    CONSOLE_JS = "console.js"
    PREVIEW_CSS = "preview.css"

    def __str__(self) -> str:
        return str(self.value)

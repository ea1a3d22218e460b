"""HTTP: the REST API, its schemas, rate limits, and the ladder and replay pages' API."""


def attachment(name: str, ext: str, *, download: bool = False) -> dict[str, str]:
    """The Content-Disposition header of a game record `name.ext`: shown in the browser
    (`inline`, the export links) or saved (`download`, an imported record)."""
    how = "attachment" if download else "inline"
    return {"Content-Disposition": f'{how}; filename="{name}.{ext}"'}

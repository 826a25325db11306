import typer
from typing import List, Optional

app = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)

@app.command()
def main(
    title: str = typer.Argument(..., help="Title of the note"),
    tags: Optional[List[str]] = typer.Option(None, "--tag", "-t", help="Tag to attach; repeat for several tags"),
    priority: int = typer.Option(3, help="Priority from 1 (high) to 5 (low)"),
    pinned: bool = typer.Option(False, "--pinned", help="Pin the note to the top"),
    editor: str = typer.Option("vi", envvar="EDITOR", help="Editor used to write the body"),
):
    """Create a new note with a title and optional tags."""

if __name__ == "__main__":
    app()

"""The exceptions ``run`` raises besides an agent's own: a bad setting, and Ctrl-C."""


class SelfPlayError(ValueError):
    """A bad setting: unknown agent or variant, games < 1, an --out that cannot be used, a resume
    with other settings than the run's, a missing optional dependency, worker processes asked
    for by a script without the ``if __name__ == "__main__":`` guard. The command exits 2."""


class Interrupted(KeyboardInterrupt):
    """``run`` was interrupted (Ctrl-C); every finished game is kept and the output files are
    written for them. ``summary`` is what ``summary.json`` holds."""

    def __init__(self, summary: dict):
        super().__init__("self-play interrupted")
        self.summary = summary

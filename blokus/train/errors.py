"""The exceptions ``run`` raises: a bad setting, and Ctrl-C."""


class TrainError(ValueError):
    """A bad setting: an option out of range, an unknown opponent, an --out that cannot be used,
    a resume with other settings than the run's, a missing optional dependency; or a damaged run
    to resume (a file of it empty, cut short, garbage or not a regular file, or files that do
    not agree). The message names the file and what to do. The command exits 2."""


class Interrupted(KeyboardInterrupt):
    """``run`` was interrupted (Ctrl-C). The checkpoint of the last finished iteration is on
    disk (``iteration``); the iteration in progress is dropped, so that a resume replays it
    exactly as an uninterrupted run would."""

    def __init__(self, out: str, iteration: int | None):
        super().__init__("training interrupted")
        self.out = out
        self.iteration = iteration

"""The ``translator`` command: :func:`translator.cli.main`, guarded against Ctrl-C.

Starting takes a while (importing the command line and its libraries): a Ctrl-C then
would print the traceback of an import and end the process by the signal.  Here, as
during a command, it is one line, ``translator: interrupted``, and exit status 130.
Nothing is imported before the guard but this module (and ``signal`` and ``sys``).
"""

import signal
import sys

#: The exit status of an interrupted command (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130


def main() -> None:
    """Run the command line and exit with its status."""
    status, said = INTERRUPTED, False
    try:
        from translator.cli import main as command  # noqa: PLC0415 - inside the guard

        status, said = command(), True  # it says "interrupted" itself
    except KeyboardInterrupt:
        pass
    # Exiting: the worker processes are stopped and files closed; a Ctrl-C now would
    # print the traceback of that.
    _ignore_interrupts()
    if not said:
        print("translator: interrupted", file=sys.stderr)
    sys.exit(status)


def _ignore_interrupts() -> None:
    while True:
        try:  # signal.signal first runs a Ctrl-C already pending: that one raises
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except KeyboardInterrupt:
            continue
        except ValueError:  # not the main thread
            pass
        return

"""The ``translator`` command: :func:`translator.cli.main`, guarded against Ctrl-C.

Starting takes a while (importing the command line and its libraries): a Ctrl-C then
would print the traceback of an import and end the process by the signal.  Here, as
during a command, it is one line, ``translator: interrupted``, and exit status 130.
Nothing is imported before the guard but this module (and ``signal`` and ``sys``).

A command that has said everything may then skip the interpreter's teardown
(:func:`_exit_at_once`): freeing the objects of a whole process, and the cyclic
collector's last scans of them, cost a lint that read the French Hunspell dictionary
about 1 s after its last line (issue 22).
"""

import signal
import sys

#: The exit status of an interrupted command (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130
#: The commands that leave nothing for the teardown to finish: their output is
#: standard output and error, every file they write is written, flushed and closed by
#: :mod:`translator.atomic` (the caches too), and they start no thread or process.
#: Their atexit handlers (the spelling cache's) still run.  Another command is
#: added here only once that is checked of it.
EXIT_AT_ONCE = frozenset({"lint"})


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
    elif _command(sys.argv[1:]) in EXIT_AT_ONCE and _the_whole_program():
        _exit_at_once(status)
    sys.exit(status)


def _the_whole_program() -> bool:
    """Is this call the program itself: made by the console script or ``python -m
    translator`` (the ``__main__`` module), with no profiler, coverage tracer or
    debugger to finish its work after it?  A caller in-process (a test expecting
    :class:`SystemExit`) gets the ordinary exit."""
    caller = sys._getframe(2).f_globals.get("__name__")  # main's caller
    return caller == "__main__" and sys.getprofile() is None and sys.gettrace() is None


def _command(arguments: list[str]) -> str | None:
    """The command named by the arguments (the first that is no option), as
    :func:`translator.cli.build_parser` finds it."""
    return next((a for a in arguments if not a.startswith("-")), None)


def _exit_at_once(status: int) -> None:
    """End the process now, as :func:`sys.exit` would once its atexit handlers ran
    and its streams were flushed, without the interpreter's teardown; or return, for
    the ordinary exit, when something may still need it: a thread or a child process
    still running (the ordinary exit waits for them), or a stream that cannot be
    flushed (a closed pipe: the ordinary exit says so as it always did)."""
    import os  # noqa: PLC0415 - only on the way out

    if not isinstance(status, int) or _still_running() or not _flushed():
        return
    import atexit  # noqa: PLC0415

    atexit._run_exitfuncs()  # as the ordinary exit does: errors printed, not raised
    if _flushed():  # what a handler printed; else the ordinary exit says why not
        os._exit(status)


def _flushed() -> bool:
    """Flush standard output and error (and the streams they wrap): did it work?"""
    try:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed pipe, a closed stream
        return False
    return True


def _still_running() -> bool:
    """Is a thread other than this one, or a child process of multiprocessing
    (a worker pool's), still running?"""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return True
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is not None and bool(multiprocessing.active_children())


def _ignore_interrupts() -> None:
    while True:
        try:  # signal.signal first runs a Ctrl-C already pending: that one raises
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except KeyboardInterrupt:
            continue
        except ValueError:  # not the main thread
            pass
        return

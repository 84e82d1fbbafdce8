# Runs a command in a pseudo-terminal for the end-to-end tests of live views
# (test/helpers/pty.ts): python3 is on every CI machine, `script` is not.
#
#   python3 pty-run.py COLS ROWS COMMAND [ARG...]
#
# What the command writes to the terminal is copied, as bytes, to stdout.
# Lines on stdin act on the terminal: "INT" types Ctrl-C (the terminal sends
# SIGINT), "RESIZE COLS ROWS" resizes it (SIGWINCH), "TERM" sends SIGTERM,
# "KEYS HEX" types the bytes HEX encodes (text, Tab, Enter: an interactive shell).
# At the end, one line on stderr: "exit N" or "signal N". SIGTERM to this
# driver (a test's deadline) kills the command with SIGKILL: a command that
# hangs must not outlive its test.
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    argv = sys.argv[3:]
    pid, master = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvp(argv[0], argv)
    signal.signal(signal.SIGTERM, lambda _signum, _frame: os.kill(pid, signal.SIGKILL))
    commands = b""
    stdin_open = True
    while True:
        fds = [master] + ([0] if stdin_open else [])
        ready, _, _ = select.select(fds, [], [], 0.5)
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            os.write(1, data)
        if 0 in ready:
            chunk = os.read(0, 4096)
            if not chunk:
                stdin_open = False
            commands += chunk
            while b"\n" in commands:
                line, commands = commands.split(b"\n", 1)
                word = line.decode().split()
                if not word:
                    continue
                if word[0] == "INT":
                    os.write(master, b"\x03")
                elif word[0] == "TERM":
                    os.kill(pid, signal.SIGTERM)
                elif word[0] == "KEYS":
                    os.write(master, bytes.fromhex(word[1]))
                elif word[0] == "RESIZE":
                    size = struct.pack("HHHH", int(word[2]), int(word[1]), 0, 0)
                    fcntl.ioctl(master, termios.TIOCSWINSZ, size)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sys.stderr.write("signal %d\n" % os.WTERMSIG(status))
    else:
        sys.stderr.write("exit %d\n" % os.WEXITSTATUS(status))


main()

"""An emulated switch's command server: Python started and the emulator imported once, then every SSH
command the switch's sshd hands over (emu_client.c, its ForceCommand) runs in a process forked from it.

    zygote.py SOCKET EMULATOR     serves EMULATOR (nvue.py, eos.py, sonic.py) on the unix socket SOCKET
    zygote.py --client PATH       compiles emu_client.c to PATH (cc), unless PATH is already newer

What a forked command sees is what the emulator run by sshd would: its standard input, output and
error are the SSH channel's own descriptors (received from the client, not copied), its environment
and arguments are the client's, its exit status is the client's. The server runs where the switch
runs (the lab starts it in the switch's network namespace), so what a command changes lands where it
would. A command's own processes (the revert timers) are started as before, by the emulator. Start-up
of Python and the emulator's imports are about 45 ms of CPU per command, the fork a few; the server
is one per switch, a few MB.

The socket is bound under a temporary name and renamed into place once listening: a client that finds
SOCKET is never refused."""
import array
import gc
import importlib.util
import os
import signal
import socket
import struct
import subprocess
import sys
import traceback

CLIENT_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emu_client.c")


def build_client(path):
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(CLIENT_SOURCE):
        return 0
    tmp = "%s.%d" % (path, os.getpid())
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", "-o", tmp, CLIENT_SOURCE], check=True)
    os.replace(tmp, path)
    return 0


def exactly(conn, size, data):
    """`data` and what follows it on `conn`, until it holds `size` bytes."""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ValueError("the client's request was cut short")
        data += chunk
    return data


def receive(conn):
    """The client's request: (descriptors, arguments, environment)."""
    fds = array.array("i")
    data, ancillary, _, _ = conn.recvmsg(1, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    if len(fds) != 3 or not data:
        raise ValueError("the client sent no descriptors")
    data = exactly(conn, 4, data)
    size = struct.unpack("=I", data[:4])[0]
    data = exactly(conn, size, data[4:])
    nargs, nenv = struct.unpack("=II", data[:8])
    strings = data[8:].split(b"\0")[:nargs + nenv]
    args = [os.fsdecode(s) for s in strings[:nargs]]
    env = dict(os.fsdecode(s).partition("=")[::2] for s in strings[nargs:])
    return list(fds), args, env


def status_of(code):
    """sys.exit's argument as the interpreter turns it into an exit status."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write("%s\n" % code)
    return 1


def command(conn, module, script):
    """The forked process: becomes the emulator run with the client's descriptors, then reports."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the emulator waits for its own children
    status = 1
    try:
        fds, args, env = receive(conn)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = [script] + args
        try:
            status = status_of(module.main())
        except SystemExit as e:
            status = status_of(e.code)
        except Exception:  # what the interpreter would print, and its status
            traceback.print_exc()
            status = 1
        try:
            sys.stdout.flush()
        except BrokenPipeError:  # the reader went away (the client timed the command out)
            status = 120
        sys.stderr.flush()
    except Exception:
        traceback.print_exc()
    finally:
        try:
            conn.sendall(bytes([status]))
        except OSError:
            pass
        os._exit(status)


def serve(path, script):
    name = os.path.splitext(os.path.basename(script))[0]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    spec = importlib.util.spec_from_file_location(name, script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import difflib  # noqa: F401  what emulators import where they use it: loaded once, here

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    tmp = "%s.%d" % (path, os.getpid())
    listener.bind(tmp)
    listener.listen(128)
    os.rename(tmp, path)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # commands are reaped by the kernel
    gc.freeze()  # what is loaded stays shared with the commands: their collector does not touch it
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            command(conn, module, script)
        conn.close()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--client":
        return build_client(sys.argv[2])
    if len(sys.argv) == 3:
        return serve(sys.argv[1], os.path.abspath(sys.argv[2]))
    sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    sys.exit(main())

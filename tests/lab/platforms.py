"""How each switch platform's emulator comes up in the lab: its state directory, loaded with the device's
rendered configuration the way the NOS would take it (SONiC `config load` of config_db.json, NVUE's
commands.nvue applied, EOS's session.cfg committed, NX-OS's config.cfg pasted, Junos's config.set loaded
and committed) or at its factory defaults, its emulator server
(emulators/zygote.py, in the switch's namespace), and the ForceCommand its sshd runs."""
import json
import os
import subprocess
import sys
import time

EMULATORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emulators")
sys.path.insert(0, EMULATORS)
import zygote  # noqa: E402  the emulators' command server and its client

def mbps(speed):
    return int(speed.rstrip("G")) * 1000


# platform -> (emulator, rendered artifact it loads, the port speed as its ports.json holds it)
LOADS = {
    "sonic": ("sonic.py", "config_db.json", str),
    "nvue": ("nvue.py", "commands.nvue", str),
    "eos": ("eos.py", "session.cfg", mbps),
    "nxos": ("nxos.py", "config.cfg", mbps),
    "junos": ("junos.py", "config.set", mbps),
}


def hardware(platform, state, settings):
    """What the inventory says of the switch's hardware and release (the device's `eos:` or `nvue:`
    mapping), written where its emulator reads it, so that it refuses what that chip or release refuses:
    EOS's chip family (chip.txt: its queue word), NVUE's release (version.json: its RoCE syntax)."""
    if platform == "eos" and settings.get("chip"):
        with open(os.path.join(state, "chip.txt"), "w") as f:
            f.write(str(settings["chip"]) + "\n")
    if platform == "nvue" and settings.get("release"):
        with open(os.path.join(state, "version.json"), "w") as f:
            json.dump({"release": "%s.0" % settings["release"]}, f)


def install(platform, namespace, ports, device_dir, render_dir, netdev, lldp_socket, factory=False, settings=None):
    emulator, artifact, speed = LOADS[platform]
    emulator = os.path.join(EMULATORS, emulator)
    state = os.path.join(device_dir, "state")
    os.makedirs(state, exist_ok=True)
    hardware(platform, state, settings or {})
    table = {"_lldp_socket": lldp_socket}
    for port, spec in ports.items():
        table[port] = {"speed": speed((spec or {}).get("speed", "400G")), "netdev": netdev(port)}
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump(table, f, indent=2)
    # The emulator runs in the switch's namespace, so the MTUs it applies land on the switch's netdevs.
    # --factory: the NOS's factory defaults for these ports (no lossless configuration), for bring-up.
    init = ["--factory"] if factory else ["--load", os.path.join(render_dir, artifact)]
    subprocess.run(["ip", "netns", "exec", namespace, sys.executable, emulator, state] + init, check=True,
                   capture_output=True, text=True)
    # Its commands are served in the namespace too; the lab's `down` ends the server with the namespace's
    # other processes.
    client = os.path.join(os.path.dirname(device_dir), "emu-client")
    zygote.build_client(client)
    socket = os.path.join(device_dir, "emu.sock")
    with open(os.path.join(device_dir, "zygote.log"), "w") as log:
        subprocess.Popen(["ip", "netns", "exec", namespace, sys.executable, zygote.__file__, socket, emulator],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    deadline = time.time() + 10
    while not os.path.exists(socket):
        if time.time() > deadline:
            with open(os.path.join(device_dir, "zygote.log")) as log:
                sys.exit("the emulator server of %s did not start: %s" % (namespace, log.read()))
        time.sleep(0.02)
    return "%s %s %s" % (client, socket, state)

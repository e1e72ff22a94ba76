"""A lab whose tools, resources and prompts change while it is served.

Run as a server: ``python tests/servers/lab.py [key=value...]`` (server options).
"""

from __future__ import annotations

import sys
import threading

from flat_options import as_records

import objmcp


class Gadget:
    """A tool installed while the lab is served."""

    def __init__(self, label: str) -> None:
        self.label = label

    def spin(self, times: int) -> str:
        """Spin the gadget."""
        return f"{self.label} spun {times} times"


class Annex:
    """Resources and a prompt opened while the lab is served."""

    @objmcp.resource("annex://motto")
    def motto(self) -> str:
        """The annex's motto."""
        return "Measure twice"

    @objmcp.prompt
    def cheer(self, who: str) -> str:
        """Cheer someone on."""
        return f"Cheer {who} on."


class Lab:
    """Readings that change, and tools that change what the lab serves."""

    def __init__(self) -> None:
        self.readings = {1: "cold", 2: "warm"}
        self.server: objmcp.Server | None = None

    @objmcp.resource("readings://{number}", cache=(30_000, "public"))
    def reading(self, number: int) -> str:
        """One reading."""
        return self.readings[number]

    @objmcp.resource("readings://all")
    def every_reading(self) -> dict[int, str]:
        """Every reading, by number."""
        return self.readings

    def record(self, number: int, value: str, resource_updated: objmcp.ResourceUpdated) -> str:
        """Record a reading; its subscribers hear of it."""
        self.readings[number] = value
        resource_updated(f"readings://{number}")
        resource_updated("readings://all")
        return value

    async def record_async(self, number: int, value: str, context: objmcp.Context) -> str:
        """Record a reading, from async code."""
        self.readings[number] = value
        await context.resource_updated(f"readings://{number}")
        return value

    def record_elsewhere(self, number: int, value: str) -> str:
        """Record a reading from a thread of the lab's own, which tells the server."""
        assert self.server is not None

        def work() -> None:
            self.readings[number] = value
            assert self.server is not None
            self.server.notify_resource_updated(f"readings://{number}")

        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        return value

    def install(self, label: str) -> list[str]:
        """Install a gadget: a tool named ``<label>_spin``."""
        assert self.server is not None
        added = self.server.add(Gadget(label), tools={"spin": {"name": f"{label}_spin"}})
        return list(added.tools)

    def uninstall(self, name: str) -> str:
        """Take a tool away."""
        assert self.server is not None
        self.server.remove(name)
        return name

    async def open_annex(self) -> list[str]:
        """Serve the annex's resource and prompt too."""
        assert self.server is not None
        added = self.server.add(Annex())
        return [*added.resources, *added.prompts]

    def close_annex(self) -> None:
        """Stop serving the annex."""
        assert self.server is not None
        self.server.remove("annex://motto")
        self.server.remove("cheer")


def serve(lab: Lab, **options: object) -> objmcp.Server:
    """The server of ``lab``, which ``lab`` can change."""
    server = objmcp.Server("lab", lab, **as_records(options))
    lab.server = server
    return server


if __name__ == "__main__":
    given = dict(argument.split("=", 1) for argument in sys.argv[1:])
    options: dict[str, object] = {k: int(v) if v.isdigit() else v for k, v in given.items()}
    if "declare" in options:  # declare=prompts: the annex brings a prompt later
        options["declare"] = str(options["declare"]).split(",")
    port = options.pop("http", None)
    server = serve(Lab(), **options)
    if port is None:
        server.run()
    else:  # http=PORT: Streamable HTTP on 127.0.0.1
        import uvicorn

        uvicorn.run(objmcp.McpApp(server), host="127.0.0.1", port=int(port), log_level="warning")

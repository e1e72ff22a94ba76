"""What the official MCP conformance suite (``@modelcontextprotocol/conformance``, server
mode) asks a server to offer, as one plain object: the tools, resources, prompts and
behaviours its scenarios name, with the outputs they describe (the suite's reference is
its ``examples/servers/typescript/everything-server.ts``).

Serve it over Streamable HTTP and point the suite at it::

    python -m objmcp run --http --port 3000 tests/servers/conformance.py:Conformance
    node .../conformance/dist/index.js server --url http://127.0.0.1:3000/mcp

``tests/peers/test_conformance.py`` does both.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Annotated, Any

import anyio
from forms import CONTACT_SCHEMA  # the suite's schema, word for word (SEP-1613, SEP-2106)

import objmcp

# A 1x1 red PNG and a minimal WAV: the suite's own test media.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
WAV = base64.b64decode("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")

# Candidates for completion/complete on the arguments of test_prompt_with_arguments.
WORDS = ["paris", "park", "party", "test", "testing", "tested"]


def _starting_with(typed: str) -> list[str]:
    return [word for word in WORDS if word.startswith(typed)]


def _form(field: str) -> dict[str, Any]:
    """A form of one required text field, as the suite's questions are."""
    return {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}


_CONFIRM: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean"}, "name": {"type": "string"}},
}


class Conformance:
    """The conformance suite's everything-server, as a plain Python object."""

    # --- tools ---------------------------------------------------------------------------

    def test_simple_text(self) -> str:
        """Tests simple text content response."""
        return "This is a simple text response for testing."

    def test_image_content(self) -> objmcp.Image:
        """Tests image content response."""
        return objmcp.Image(PNG, mime_type="image/png")

    def test_audio_content(self) -> objmcp.Audio:
        """Tests audio content response."""
        return objmcp.Audio(WAV, mime_type="audio/wav")

    def test_embedded_resource(self) -> objmcp.File:
        """Tests embedded resource content response."""
        return objmcp.File(
            "test://embedded-resource", "This is an embedded resource content.", "text/plain"
        )

    def test_multiple_content_types(self) -> list[object]:
        """Tests response with multiple content types (text, image, resource)."""
        return [
            "Multiple content types test:",
            objmcp.Image(PNG, mime_type="image/png"),
            objmcp.File(
                "test://mixed-content-resource",
                json.dumps({"test": "data", "value": 123}, separators=(",", ":")),
                "application/json",
            ),
        ]

    def test_tool_with_logging(self, log: objmcp.Log) -> str:
        """Tests tool that emits log messages during execution."""
        log.info("Tool execution started")
        time.sleep(0.05)
        log.info("Tool processing data")
        time.sleep(0.05)
        log.info("Tool execution completed")
        return "Tool with logging executed successfully"

    def test_tool_with_progress(self, progress: objmcp.Progress) -> str:
        """Tests tool that reports progress notifications."""
        for step in (0, 50, 100):
            if step:
                time.sleep(0.05)
            progress(step, 100, f"Completed step {step} of 100")
        return "Tool with progress executed successfully"

    def test_error_handling(self) -> None:
        """Tests error response handling."""
        raise objmcp.ToolError("This tool intentionally returns an error for testing")

    def test_reconnection(self) -> str:
        """Tests SSE stream disconnection and client reconnection (SEP-1699): served with
        ``--poll-after 1``, the server closes this call's stream after a second, and the
        suite's one reconnection (held a second too) gets the answer: half a second of
        margin either way."""
        time.sleep(1.5)
        return (
            "Reconnection test completed successfully. If you received this, the client "
            "properly reconnected after stream closure."
        )

    def test_sampling(self, prompt: str, sample: objmcp.Sample) -> str:
        """Tests server-initiated sampling (LLM completion request).

        Args:
            prompt: The prompt to send to the LLM.
        """
        reply = sample(prompt, max_tokens=100)
        return f"LLM response: {reply.text}"

    def test_elicitation(self, message: str, elicit: objmcp.Elicit) -> str:
        """Tests server-initiated elicitation (user input request).

        Args:
            message: The message to show the user.
        """
        answer = elicit(
            message,
            {
                "type": "object",
                "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"},
                },
                "required": ["username", "email"],
            },
        )
        return f"User response: action={answer.action}, content={json.dumps(answer.content)}"

    def test_elicitation_sep1034_defaults(self, elicit: objmcp.Elicit) -> str:
        """Tests elicitation with default values per SEP-1034."""
        answer = elicit(
            "Please review and update the form fields with defaults",
            {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "User name", "default": "John Doe"},
                    "age": {"type": "integer", "description": "User age", "default": 30},
                    "score": {"type": "number", "description": "User score", "default": 95.5},
                    "status": {
                        "type": "string",
                        "description": "User status",
                        "enum": ["active", "inactive", "pending"],
                        "default": "active",
                    },
                    "verified": {
                        "type": "boolean",
                        "description": "Verification status",
                        "default": True,
                    },
                },
                "required": [],
            },
        )
        return (
            f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"
        )

    def test_elicitation_sep1330_enums(self, elicit: objmcp.Elicit) -> str:
        """Tests elicitation with enum schema improvements per SEP-1330."""
        titled = [("value1", "First"), ("value2", "Second"), ("value3", "Third")]
        answer = elicit(
            "Please select options from the enum fields",
            {
                "type": "object",
                "properties": {
                    "untitledSingle": {
                        "type": "string",
                        "description": "Select one option",
                        "enum": ["option1", "option2", "option3"],
                    },
                    "titledSingle": {
                        "type": "string",
                        "description": "Select one option with titles",
                        "oneOf": [{"const": c, "title": f"{t} Option"} for c, t in titled],
                    },
                    "legacyEnum": {
                        "type": "string",
                        "description": "Select one option (legacy)",
                        "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"],
                    },
                    "untitledMulti": {
                        "type": "array",
                        "description": "Select multiple options",
                        "minItems": 1,
                        "maxItems": 3,
                        "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                    },
                    "titledMulti": {
                        "type": "array",
                        "description": "Select multiple options with titles",
                        "minItems": 1,
                        "maxItems": 3,
                        "items": {
                            "anyOf": [{"const": c, "title": f"{t} Choice"} for c, t in titled]
                        },
                    },
                },
                "required": [],
            },
        )
        return (
            f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"
        )

    @objmcp.tool(input_schema=CONTACT_SCHEMA)
    def json_schema_2020_12_tool(self, **contact: Any) -> str:
        """Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613,
        SEP-2106): its input schema is the suite's, kept as given."""
        return f"JSON Schema 2020-12 tool called with: {json.dumps(contact)}"

    def test_param_headers(
        self,
        region: Annotated[str, objmcp.Header("Region")],
        query: str = "",
        priority: Annotated[int, objmcp.Header("Priority")] = 0,
    ) -> str:
        """Runs ``query`` in ``region``: an HTTP client mirrors ``region`` and ``priority``
        into ``Mcp-Param-Region`` and ``Mcp-Param-Priority`` (SEP-2243), which the server
        checks against the arguments."""
        return f"{query!r} in {region} at priority {priority}"

    # --- 2026-07-28: the stateless era's diagnostics (server-stateless) ------------------

    @objmcp.tool(needs=["sampling"])
    def test_missing_capability(self, sample: objmcp.Sample) -> str:
        """Asks the client's model, so a client that did not declare sampling is refused
        (-32021) before it runs."""
        return sample("Say hello", max_tokens=10).text

    def test_streaming_elicitation(self, elicit: objmcp.Elicit) -> str:
        """Asks the user a question: the response stream carries the input_required
        result, never a request of the server's."""
        return f"Answered: {elicit('Your name?', str).action}"

    def test_logging_tool(self, log: objmcp.Log) -> str:
        """Logs; a request that set no logLevel hears none of it."""
        log.info("a log message the client did not ask to hear")
        return "Logged"

    # --- 2026-07-28: input_required results (SEP-2322) -----------------------------------

    def test_input_required_result_elicitation(self, elicit: objmcp.Elicit) -> str:
        """Asks the user's name, under the key the suite looks for."""
        answer = elicit("What is your name?", _form("name"), key="user_name")
        return f"Hello, {answer.content['name']}!"

    def test_input_required_result_multiple_inputs(
        self, elicit: objmcp.Elicit, sample: objmcp.Sample, roots: objmcp.Roots
    ) -> str:
        """Asks the user, the client's model and the client's roots, in one round."""
        answers = objmcp.ask_all(
            user_name=elicit.question("What is your name?", _form("name")),
            greeting=sample.question("Generate a greeting", max_tokens=50),
            client_roots=roots.question(),
        )
        folders = ", ".join(root.uri for root in answers["client_roots"])
        return f"{answers['greeting'].text}, {answers['user_name'].content['name']} ({folders})"

    def test_input_required_result_capabilities(self, context: objmcp.Context) -> str:
        """Asks the user when the client can show a form, and its model when it can
        sample: only what the client declared it can answer."""
        questions: dict[str, objmcp.Question] = {}
        if "elicitation" in context.client_capabilities:
            questions["user_name"] = context.elicit.question("What is your name?", _form("name"))
        if "sampling" in context.client_capabilities:
            questions["greeting"] = context.sample.question("Generate a greeting", max_tokens=50)
        if not questions:
            return "Nothing to ask this client"
        return f"Answered: {sorted(objmcp.ask_all(questions))}"

    def test_input_required_result_sampling(self, sample: objmcp.Sample) -> str:
        """Asks the client's model, then answers with what it said."""
        return sample("What is the capital of France?", max_tokens=100).text

    def test_input_required_result_list_roots(self, roots: objmcp.Roots) -> str:
        """Asks for the client's roots, then names them."""
        return "Roots: " + ", ".join(root.uri for root in roots())

    def test_input_required_result_request_state(self, elicit: objmcp.Elicit) -> str:
        """Asks for a confirmation; the retry's sealed state is checked before it runs."""
        answer = elicit(
            "Please confirm",
            {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
        )
        return f"state-ok: {answer.action}"

    def test_input_required_result_multi_round(self, elicit: objmcp.Elicit) -> str:
        """Asks two questions, one round each."""
        name = elicit(
            "Step 1: What is your name?",
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        )
        color = elicit(
            "Step 2: What is your favorite color?",
            {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]},
        )
        return f"{name.content} likes {color.content}"

    def test_input_required_result_tampered_state(self, elicit: objmcp.Elicit) -> str:
        """Asks a question; a retry whose state was tampered with is refused."""
        return f"Answered: {elicit('Your name?', str).action}"

    # --- 2026-07-28: the tasks extension (SEP-2663, the tasks-* scenarios) ------------------

    @objmcp.tool(task="never")
    def greet(self, name: str) -> str:
        """Greets at once, never as a task."""
        return f"Hello, {name}!"

    @objmcp.tool(task="optional")
    async def slow_compute(self, seconds: float, label: str = "") -> str:
        """Works ``seconds`` seconds, as a task to a client that can poll it."""
        await anyio.sleep(seconds)
        return f"Computed {label} in {seconds:g} s"

    @objmcp.tool(task="always")
    async def failing_job(self) -> str:
        """Fails as a tool fails (an error result), after a second; always a task (the
        suite's required-task tool: a client without the extension is refused)."""
        await anyio.sleep(1)
        raise objmcp.ToolError("failing_job failed, as it always does")

    @objmcp.tool(task="optional")
    async def protocol_error_job(self, roots: objmcp.Roots) -> str:
        """Asks for the client's roots, which the suite's client did not declare: a
        protocol error (-32021), so the task fails."""
        await anyio.sleep(0.2)
        return str(await roots())

    @objmcp.tool(task="optional")
    async def confirm_delete(self, filename: str, elicit: objmcp.Elicit) -> str:
        """Asks the user to confirm, inside its task."""
        await anyio.sleep(0.2)
        answer = await elicit(f"Delete {filename}?", _CONFIRM, key="confirm")
        return f"Deleted {filename}" if answer.action == "accept" else f"Kept {filename}"

    @objmcp.tool(task="optional")
    async def multi_input(self, elicit: objmcp.Elicit) -> str:
        """Asks the user two questions at once, inside its task."""
        await anyio.sleep(0.2)
        answers = await elicit.many(
            {"first": ("First?", _CONFIRM), "second": ("Second?", _CONFIRM)}
        )
        return f"Answered: {answers['first'].action}, {answers['second'].action}"

    @objmcp.tool(task="always")
    async def test_tool_with_task(self, elicit: objmcp.Elicit) -> str:
        """Asks the user's name first (input_required), then works on as a task."""
        answer = await elicit("What is your name?", _form("name"), key="user_name")
        await anyio.sleep(0.3)
        return f"Hello, {answer.content['name']}!"

    @objmcp.prompt
    def test_input_required_result_prompt(self, elicit: objmcp.Elicit) -> str:
        """A prompt that asks the user for its context first."""
        answer = elicit(
            "What context should the prompt use?",
            {
                "type": "object",
                "properties": {"context": {"type": "string"}},
                "required": ["context"],
            },
        )
        return f"Use this context: {answer.content}"

    # --- resources -----------------------------------------------------------------------

    @objmcp.resource("test://static-text", title="Static Text Resource", mime_type="text/plain")
    def static_text(self) -> str:
        """A static text resource for testing."""
        return "This is the content of the static text resource."

    @objmcp.resource("test://static-binary", title="Static Binary Resource", mime_type="image/png")
    def static_binary(self) -> bytes:
        """A static binary resource (image) for testing."""
        return PNG

    @objmcp.resource(
        "test://template/{id}/data", title="Resource Template", mime_type="application/json"
    )
    def template(self, id: str) -> dict[str, object]:
        """A resource template with parameter substitution."""
        return {"id": id, "templateTest": True, "data": f"Data for ID: {id}"}

    @objmcp.resource("test://watched-resource", title="Watched Resource", mime_type="text/plain")
    def watched_resource(self) -> str:
        """A resource that can be subscribed to."""
        return "Watched resource content"

    # --- prompts -------------------------------------------------------------------------

    @objmcp.prompt(title="Simple Test Prompt")
    def test_simple_prompt(self) -> str:
        """A simple prompt without arguments."""
        return "This is a simple prompt for testing."

    @objmcp.prompt(
        title="Prompt With Arguments", complete={"arg1": _starting_with, "arg2": _starting_with}
    )
    def test_prompt_with_arguments(self, arg1: str, arg2: str) -> str:
        """A prompt with required arguments.

        Args:
            arg1: First test argument.
            arg2: Second test argument.
        """
        return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"

    @objmcp.prompt(title="Prompt With Embedded Resource")
    def test_prompt_with_embedded_resource(self, resourceUri: str) -> list[object]:  # noqa: N803
        """A prompt that includes an embedded resource.

        Args:
            resourceUri: URI of the resource to embed.
        """
        return [
            objmcp.File(resourceUri, "Embedded resource content for testing.", "text/plain"),
            "Please process the embedded resource above.",
        ]

    @objmcp.prompt(title="Prompt With Image")
    def test_prompt_with_image(self) -> list[object]:
        """A prompt that includes image content."""
        return [objmcp.Image(PNG, mime_type="image/png"), "Please analyze the image above."]

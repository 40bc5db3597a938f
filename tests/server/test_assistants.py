"""Assistants: every loaded graph is one, found, described and typed as LangGraph's clients
expect (search, get, graph, schemas)."""

import json
import uuid

from langgraph_sdk.errors import NotFoundError

import suite
from support import TEMPLATES

# LangGraph's recipe for a graph's default assistant (uuid5 in the URL namespace), so the ids
# match what the same graph_id gets on LangGraph's own server.
NAMESPACE = uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")


def assistant_id(graph_id):
    return str(uuid.uuid5(NAMESPACE, graph_id))


def template_names():
    return [json.load(open(p))["name"] for p in TEMPLATES]


class Assistants(suite.ServerCase):
    def test_search_lists_every_template_once_by_name(self):
        """Rule: each graph given on the command line is one assistant, graph_id = its name."""
        found = self.client.assistants.search(limit=100)
        graph_ids = [a["graph_id"] for a in found]
        for name in template_names() + ["simple"]:
            self.assertEqual(graph_ids.count(name), 1, f"{name} in {graph_ids}")

    def test_assistant_ids_follow_langgraphs_recipe(self):
        """Rule: assistant_id = uuid5(6ba7b821-…, graph_id), as LangGraph names default assistants."""
        for a in self.client.assistants.search(limit=100):
            self.assertEqual(a["assistant_id"], assistant_id(a["graph_id"]), a)
            self.assertEqual(a["name"], a["graph_id"])
            for key in ("config", "metadata", "version", "created_at", "updated_at"):
                self.assertIn(key, a)

    def test_search_filters_by_graph_id_and_pages(self):
        """Rule: search takes graph_id, limit and offset like LangGraph's."""
        only = self.client.assistants.search(graph_id="Approval workflow")
        self.assertEqual([a["graph_id"] for a in only], ["Approval workflow"])
        everything = self.client.assistants.search(limit=100)
        first = self.client.assistants.search(limit=2, offset=0)
        second = self.client.assistants.search(limit=2, offset=2)
        self.assertEqual(len(first), 2)
        self.assertEqual([a["assistant_id"] for a in first + second],
                         [a["assistant_id"] for a in everything[:4]])

    def test_get_by_id(self):
        """Rule: an assistant is found by its id, and carries its graph's description."""
        for name in template_names():
            by_id = self.client.assistants.get(assistant_id(name))
            self.assertEqual(by_id["graph_id"], name)
        description = json.load(open(TEMPLATES[3])).get("description")
        got = self.client.assistants.get(assistant_id("Approval workflow"))
        if description:
            self.assertEqual(got["description"], description)

    def test_unknown_assistant_is_404(self):
        """Rule: an unknown assistant is an error the SDK raises, never an empty answer."""
        with self.assertRaises(NotFoundError):
            self.client.assistants.get(str(uuid.uuid4()))

    def test_graph_of_every_template_links_known_nodes(self):
        """Rule: get_graph gives nodes and edges between them; notes are left out; start is __start__."""
        for path in TEMPLATES:
            doc = json.load(open(path))
            graph = self.client.assistants.get_graph(assistant_id(doc["name"]))
            ids = {n["id"] for n in graph["nodes"]}
            self.assertIn("__start__", ids, doc["name"])
            for note in (n["id"] for n in doc["nodes"] if n["kind"] == "note"):
                self.assertNotIn(note, ids)
            for n in doc["nodes"]:
                if n["kind"] not in ("note", "start", "end"):
                    self.assertIn(n["id"], ids, doc["name"])
            for e in graph["edges"]:
                self.assertIn(e["source"], ids, (doc["name"], e))
                self.assertIn(e["target"], ids, (doc["name"], e))
            conditional = [e for e in graph["edges"] if e.get("conditional")]
            if any("when" in e or "label" in e for e in doc["edges"]):
                self.assertTrue(conditional, f"{doc['name']}: edges with conditions are marked conditional")

    def test_schemas_of_every_template_type_its_state(self):
        """Rule: get_schemas turns the state's fields into JSON Schema; input_schema requires
        what start requires."""
        for path in TEMPLATES:
            doc = json.load(open(path))
            schemas = self.client.assistants.get_schemas(assistant_id(doc["name"]))
            self.assertEqual(schemas["graph_id"], doc["name"])
            props = schemas["state_schema"]["properties"]
            self.assertEqual(set(props), set(doc["state"]), doc["name"])
            for name, field in doc["state"].items():
                expected = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean",
                            "list": "array", "object": "object", "messages": "array"}.get(field.get("type"))
                if expected:
                    self.assertEqual(props[name].get("type"), expected, f"{doc['name']}.{name}")
            start = next(n for n in doc["nodes"] if n["kind"] == "start")
            for key in start.get("required", []):
                self.assertIn(key, schemas["input_schema"].get("required", []), doc["name"])

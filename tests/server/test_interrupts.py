"""Interrupts and Command(resume=...): a human node's wait as LangGraph's clients see it, the
answer that continues it, answers the form refuses, and breakpoints (interrupt_before/after)."""

import suite

APPROVAL = "Approval workflow"


class Interrupts(suite.ServerCase):
    def start_approval(self, request="a new laptop"):
        tid = self.thread()
        result = self.client.runs.wait(tid, APPROVAL, input={"request": request})
        return tid, result

    def test_wait_returns_the_values_and_the_pending_interrupt(self):
        """Rule: runs.wait at a human node gives the values plus __interrupt__ [{id, value}];
        the run is success and the thread interrupted, its interrupts keyed by task."""
        tid, result = self.start_approval()
        self.assertEqual(result["request"], "a new laptop")
        [interrupt] = result["__interrupt__"]
        self.assertTrue(interrupt["id"])
        self.assertIn("decision", str(interrupt["value"]))
        thread = self.client.threads.get(tid)
        self.assertEqual(thread["status"], "interrupted")
        self.assertEqual([i["id"] for group in thread["interrupts"].values() for i in group], [interrupt["id"]])
        [run] = self.client.runs.list(tid)
        self.assertEqual(run["status"], "success")

    def test_state_names_the_waiting_node_as_next_and_task(self):
        """Rule: get_state at an interrupt: next = the human node, its task carries the interrupt."""
        tid, result = self.start_approval()
        state = self.client.threads.get_state(tid)
        self.assertEqual(state["next"], ["get_approval"])
        self.assertEqual([t["name"] for t in state["tasks"]], ["get_approval"])
        self.assertEqual(self.bare(state["tasks"][0]["interrupts"]), self.bare(result["__interrupt__"]))
        self.assertEqual(self.bare(state["interrupts"]), self.bare(result["__interrupt__"]))

    def test_resume_answers_the_form_and_finishes(self):
        """Rule: Command(resume=answer) gives the human node its answer; the thread goes idle."""
        tid, _ = self.start_approval("two days off")
        done = self.client.runs.wait(tid, APPROVAL, command={"resume": {"decision": "approve",
                                                                         "comments": "enjoy"}})
        self.assertNotIn("__interrupt__", done)
        self.assertEqual(done["decision"], "approve")
        self.assertEqual(done["final_status"], "completed")
        self.assertTrue(done["final_result"].startswith("Approved."), done["final_result"])
        thread = self.client.threads.get(tid)
        self.assertEqual((thread["status"], thread["interrupts"]), ("idle", {}))

    def test_resume_by_stream_ends_with_the_final_values(self):
        """Rule: a resume can be streamed too; its last values carry no interrupt."""
        tid, _ = self.start_approval()
        events = self.stream(tid, APPROVAL, command={"resume": {"decision": "reject"}}, stream_mode="values")
        values = [d for e, d in events if e == "values"]
        self.assertEqual(events[0][0], "metadata")
        self.assertEqual(values[-1]["final_status"], "completed")
        self.assertTrue(values[-1]["final_result"].startswith("Rejected."), values[-1])

    def test_a_free_text_question_takes_a_string(self):
        """Rule: a human node without a form (001's operator question) is answered with the bare
        value, as LangGraph's interrupt() is; the answer lands in the node's field."""
        tid = self.thread()
        waiting = self.client.runs.wait(tid, "Step engine", input={"readings": [12, 15, 18, 21, 24, 27]})
        [interrupt] = waiting["__interrupt__"]
        self.assertEqual(interrupt["value"]["node"], "ask_operator")
        done = self.client.runs.wait(tid, "Step engine", command={"resume": "Page the plant engineer"})
        self.assertEqual(done["operator_note"], "Page the plant engineer")
        self.assertEqual(self.client.threads.get(tid)["status"], "idle")

    def test_an_answer_the_form_refuses_is_422_and_changes_nothing(self):
        """Rule: an answer Switchyard refuses (a field of the wrong type) is 422 with the
        engine's message; the thread still waits with the same interrupt."""
        tid, result = self.start_approval()
        detail = self.refused(422, self.client.runs.wait, tid, APPROVAL, command={"resume": {"decision": True}})
        self.assertIn("decision", detail)
        thread = self.client.threads.get(tid)
        self.assertEqual(thread["status"], "interrupted")
        pending = self.client.threads.get_state(tid)["interrupts"]
        self.assertEqual(self.bare(pending), self.bare(result["__interrupt__"]))
        done = self.client.runs.wait(tid, APPROVAL, command={"resume": {"decision": "approve"}})
        self.assertEqual(done["final_status"], "completed")

    def test_an_option_not_offered_is_422(self):
        """Rule: a form field with options refuses any other value (004's plan decision)."""
        tid = self.thread()
        result = self.client.runs.wait(tid, "Linear orchestrator", input={"task": "send the invoices to audit"})
        self.assertIn("__interrupt__", result, result)
        self.refused(422, self.client.runs.wait, tid, "Linear orchestrator",
                     command={"resume": {"plan_decision": "perhaps"}})
        self.assertEqual(self.client.threads.get(tid)["status"], "interrupted")

    def test_interrupt_before_stops_before_the_node(self):
        """Rule: interrupt_before=[node] stops with next == [node], no interrupt value, run
        success; a run with no input then goes on from there."""
        tid = self.thread()
        stopped = self.client.runs.wait(tid, "simple", input={"text": "hi"}, interrupt_before=["shout"])
        self.assertEqual(stopped, {"text": "hi", "count": 1, "echo": ""})
        thread = self.client.threads.get(tid)
        self.assertEqual((thread["status"], thread["interrupts"]), ("interrupted", {}))
        state = self.client.threads.get_state(tid)
        self.assertEqual(state["next"], ["shout"])
        self.assertEqual(state["tasks"][0]["interrupts"], [])
        self.assertEqual(self.client.runs.list(tid)[0]["status"], "success")
        done = self.client.runs.wait(tid, "simple")
        self.assertEqual(done, {"text": "hi", "count": 1, "echo": "echo: hi"})
        self.assertEqual(self.client.threads.get(tid)["status"], "idle")

    def test_interrupt_after_stops_after_the_node(self):
        """Rule: interrupt_after=[node] stops once the step that ran it is applied."""
        tid = self.thread()
        stopped = self.client.runs.wait(tid, "simple", input={"text": "hi"}, interrupt_after=["inc"])
        self.assertEqual(stopped["count"], 1)
        self.assertEqual(stopped.get("echo", ""), "")
        self.assertEqual(self.client.threads.get_state(tid)["next"], ["shout"])
        self.assertEqual(self.client.runs.wait(tid, "simple")["echo"], "echo: hi")

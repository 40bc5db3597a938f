"""Threads: runs that share state, the history of their checkpoints numbered as LangGraph
numbers them, forks through update_state, and the thread's life (search, metadata, delete)."""

import uuid

from langgraph_sdk.errors import NotFoundError

import suite


class Threads(suite.ServerCase):
    def test_create_get_update_search_delete(self):
        """Rule: a thread starts idle with no values; metadata merges and is searchable; a
        deleted thread is 404."""
        tag = self.unique("tag")
        thread = self.client.threads.create(metadata={"tag": tag})
        self.assertEqual((thread["status"], thread["values"]), ("idle", None))
        tid = thread["thread_id"]
        self.client.threads.update(tid, metadata={"more": 1})
        got = self.client.threads.get(tid)
        self.assertEqual((got["metadata"]["tag"], got["metadata"]["more"]), (tag, 1))
        self.assertEqual([t["thread_id"] for t in self.client.threads.search(metadata={"tag": tag})], [tid])
        self.client.threads.delete(tid)
        with self.assertRaises(NotFoundError):
            self.client.threads.get(tid)

    def test_create_with_an_id_and_if_exists(self):
        """Rule: a client may name its thread; if_exists="do_nothing" returns the existing one."""
        tid = str(uuid.uuid4())
        self.assertEqual(self.client.threads.create(thread_id=tid)["thread_id"], tid)
        self.client.threads.update(tid, metadata={"kept": True})
        again = self.client.threads.create(thread_id=tid, if_exists="do_nothing")
        self.assertEqual((again["thread_id"], again["metadata"].get("kept")), (tid, True))

    def test_history_is_numbered_as_langgraph_newest_first(self):
        """Rule: one checkpoint per superstep: -1 input (next __start__), 0 input applied, then one
        per step, newest first, each the parent of the next newer one."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "yo"})
        history = self.client.threads.get_history(tid)
        self.assertEqual([h["metadata"]["step"] for h in history], [2, 1, 0, -1])
        self.assertEqual([h["next"] for h in history], [[], ["shout"], ["inc"], ["__start__"]])
        self.assertEqual(history[0]["values"], {"text": "yo", "count": 1, "echo": "echo: yo"})
        for newer, older in zip(history, history[1:]):
            self.assertEqual(newer["parent_checkpoint"]["checkpoint_id"], older["checkpoint"]["checkpoint_id"])
        self.assertIsNone(history[-1]["parent_checkpoint"])
        self.assertEqual(history[0]["metadata"]["source"], "loop")
        self.assertEqual(history[-1]["metadata"]["source"], "input")
        self.assertEqual(self.client.threads.get_history(tid, limit=2), history[:2])

    def test_state_at_a_checkpoint(self):
        """Rule: get_state with a checkpoint_id gives that checkpoint, not the newest."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "at"})
        before_shout = self.client.threads.get_history(tid)[1]
        state = self.client.threads.get_state(tid, checkpoint_id=before_shout["checkpoint"]["checkpoint_id"])
        self.assertEqual(state["values"], {"text": "at", "count": 1, "echo": ""})
        self.assertEqual(state["next"], ["shout"])

    def test_a_second_run_starts_from_the_threads_state(self):
        """Rule: a new run on a thread starts from the thread's values plus its input (not the
        defaults), and its checkpoints continue the thread's numbering."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "one"})
        second = self.client.runs.wait(tid, "simple", input={"text": "two"})
        self.assertEqual(second, {"text": "two", "count": 2, "echo": "echo: two"})
        steps = [h["metadata"]["step"] for h in self.client.threads.get_history(tid, limit=20)]
        self.assertEqual(steps, [6, 5, 4, 3, 2, 1, 0, -1])
        runs = self.client.runs.list(tid)
        self.assertEqual(len(runs), 2)
        self.assertGreaterEqual(runs[0]["created_at"], runs[1]["created_at"], "runs are listed newest first")

    def test_a_second_chat_turn_keeps_the_first(self):
        """Rule: messages of a new run's input get fresh ids, so they add to the transcript
        instead of replacing the first turn's."""
        tid = self.thread()
        self.client.runs.wait(tid, "chat", input={"messages": [{"role": "user", "content": "first"}]})
        done = self.client.runs.wait(tid, "chat", input={"messages": [{"role": "user", "content": "second"}]})
        self.assertEqual([m["content"] for m in done["messages"]],
                         ["first", "Reply to: first", "second", "Reply to: second"])
        self.assertEqual(len({m["id"] for m in done["messages"]}), 4)

    def test_update_state_forks_and_a_run_goes_on_from_the_fork(self):
        """Rule: update_state at an old checkpoint writes a new head (source update, same next);
        a run from it gives the forked result; the old branch stays in the history."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "yo"})
        before_shout = self.client.threads.get_history(tid)[1]
        self.assertEqual(before_shout["next"], ["shout"])
        made = self.client.threads.update_state(tid, {"text": "forked"},
                                                checkpoint_id=before_shout["checkpoint"]["checkpoint_id"])
        new_id = made["checkpoint"]["checkpoint_id"]
        head = self.client.threads.get_state(tid)
        self.assertEqual(head["checkpoint"]["checkpoint_id"], new_id)
        self.assertEqual(head["next"], ["shout"])
        self.assertEqual(head["metadata"]["source"], "update")
        self.assertEqual(head["parent_checkpoint"]["checkpoint_id"], before_shout["checkpoint"]["checkpoint_id"])
        done = self.client.runs.wait(tid, "simple", input=None, checkpoint_id=new_id)
        self.assertEqual(done, {"text": "forked", "count": 1, "echo": "echo: forked"})
        echoes = [h["values"].get("echo") for h in self.client.threads.get_history(tid, limit=50)]
        self.assertIn("echo: yo", echoes, "the original branch is still in the history")

    def test_update_state_at_the_head_then_run(self):
        """Rule: update_state without a checkpoint edits the newest one; a run without input
        resumes from it (a breakpoint edited, then continued)."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "x"}, interrupt_before=["shout"])
        self.client.threads.update_state(tid, {"text": "edited"})
        self.assertEqual(self.client.runs.wait(tid, "simple")["echo"], "echo: edited")

    def test_deleting_a_thread_removes_its_runs(self):
        """Rule: after delete, the thread and its runs are 404."""
        tid = self.thread()
        run = self.client.runs.create(tid, "simple", input={"text": "gone"})
        self.wait_for_run(tid, run["run_id"])
        self.client.threads.delete(tid)
        with self.assertRaises(NotFoundError):
            self.client.runs.get(tid, run["run_id"])

    def test_a_copy_has_the_state_and_history_and_goes_its_own_way(self):
        """Rule: threads.copy makes a new thread with the same values and history; a run on the
        copy starts from them and leaves the original as it was."""
        tid = self.thread()
        self.client.runs.wait(tid, "simple", input={"text": "one"})
        copy = self.client.threads.copy(tid)
        cid = copy["thread_id"]
        self.assertNotEqual(cid, tid)
        self.assertEqual(self.client.threads.get_state(cid)["values"], self.client.threads.get_state(tid)["values"])
        def steps(thread_id):
            return [h["metadata"]["step"] for h in self.client.threads.get_history(thread_id, limit=20)]

        self.assertEqual(steps(cid), steps(tid))
        self.assertEqual(len(self.client.runs.list(cid)), 1)
        second = self.client.runs.wait(cid, "simple", input={"text": "two"})
        self.assertEqual(second, {"text": "two", "count": 2, "echo": "echo: two"})
        self.assertEqual(self.client.threads.get_state(tid)["values"]["echo"], "echo: one")
        self.assertEqual(len(self.client.runs.list(tid)), 1)

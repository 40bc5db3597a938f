"""Crons: a schedule that starts runs. run.py creates one cron right after the server starts
(suite.early_cron), so the minute a `* * * * *` schedule may take passes while the other
tests run; these tests run last."""

import time
import uuid

import suite

SIMPLE = str(uuid.uuid5(uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8"), "simple"))


class Crons(suite.ServerCase):
    def test_create_search_delete(self):
        """Rule: crons are created for an assistant or a thread, found by search, and deleted."""
        tid = self.thread()
        on_thread = self.client.crons.create_for_thread(tid, "simple", schedule="0 0 1 1 *", input={"text": "jan"})
        stateless = self.client.crons.create("simple", schedule="0 0 1 1 *", input={"text": "jan"})
        self.assertIn(on_thread["cron_id"], [c["cron_id"] for c in self.client.crons.search(thread_id=tid)])
        ids = [c["cron_id"] for c in self.client.crons.search(assistant_id=SIMPLE, limit=100)]
        self.assertIn(stateless["cron_id"], ids)
        for cron in (on_thread, stateless):
            self.client.crons.delete(cron["cron_id"])
        self.assertEqual(self.client.crons.search(thread_id=tid), [])
        ids = [c["cron_id"] for c in self.client.crons.search(assistant_id=SIMPLE, limit=100)]
        self.assertNotIn(stateless["cron_id"], ids)

    def test_a_cron_fires_on_its_schedule(self):
        """Rule: a cron on a thread starts a run with its input when its schedule comes round."""
        if isinstance(suite.early_cron, Exception):
            raise suite.early_cron
        tid, cron_id, made_at = suite.early_cron
        deadline = made_at + 75
        while not self.client.runs.list(tid):
            self.assertLess(time.time(), deadline, "the every-minute cron started no run within 75 s")
            time.sleep(0.5)
        run = self.wait_for_run(tid, self.client.runs.list(tid)[-1]["run_id"])
        self.assertEqual(run["status"], "success")
        self.assertEqual(self.client.threads.get_state(tid)["values"]["echo"], "echo: tick")
        self.client.crons.delete(cron_id)

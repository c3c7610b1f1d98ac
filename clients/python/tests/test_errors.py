"""Typed errors: each API error code as its own class, carrying status, code, message (and the field)."""

import re
import unittest

from hourglass import (
    BadRequestError,
    Client,
    ConflictError,
    ConnectionFailed,
    HourglassError,
    InvalidField,
    InvalidQueueName,
    NotFoundError,
    QueueNotFound,
    Retry,
    StaleReceipt,
    Unauthorized,
)
from hourglass.errors import ERRORS_BY_CODE, error_from_answer

from .support import REPO, SharedServerTest, free_port, shared_server
from .test_jobs import new_queue


class ErrorsTest(SharedServerTest):
    def test_bad_input_is_invalid_field_naming_the_field(self) -> None:
        cases = {
            "priority": lambda: self.client.enqueue(new_queue(), 1, priority=10),
            "maxAttempts": lambda: self.client.enqueue(new_queue(), 1, max_attempts=0),
            "ttlMs": lambda: self.client.enqueue(new_queue(), 1, delay_ms=10_000, ttl_ms=1000),
            "id": lambda: self.client.enqueue(new_queue(), 1, id="no spaces"),
        }
        for field, call in cases.items():
            with self.subTest(field=field), self.assertRaises(InvalidField) as caught:
                call()
            error = caught.exception
            self.assertEqual((error.status, error.code, error.field), (400, "invalid_field", field))
            self.assertIn(field, error.message)
            self.assertIsInstance(error, BadRequestError)

    def test_both_delay_and_run_at_is_refused(self) -> None:
        with self.assertRaises(InvalidField):
            self.client.enqueue(new_queue(), 1, delay_ms=1, run_at=2_000_000_000_000)

    def test_not_found_and_conflict_codes_have_their_classes(self) -> None:
        q = new_queue()
        with self.assertRaises(QueueNotFound) as caught:
            self.client.get_queue(q)
        self.assertIsInstance(caught.exception, NotFoundError)
        self.assertEqual(caught.exception.status, 404)
        self.client.enqueue(q, 1, id="j")
        [job] = self.client.claim(q)
        self.client.ack(q, job.id, job.receipt)
        self.client.enqueue(q, 1, id="j")
        self.client.claim(q)
        with self.assertRaises(StaleReceipt) as stale:
            self.client.ack(q, "j", job.receipt)
        self.assertIsInstance(stale.exception, ConflictError)

    def test_a_bad_queue_name(self) -> None:
        with self.assertRaises(InvalidQueueName):
            self.client.enqueue("..", 1)

    def test_a_missing_or_wrong_token_is_unauthorized(self) -> None:
        for token in (None, "wrong-token-0123456789"):
            with self.subTest(token=token), Client(shared_server().url, token=token) as anonymous:
                with self.assertRaises(Unauthorized) as caught:
                    anonymous.queues()
                self.assertEqual(caught.exception.status, 401)

    def test_no_server_is_connection_failed_after_the_retries(self) -> None:
        tries = []
        nowhere = f"http://127.0.0.1:{free_port()}"
        client = Client(nowhere, retry=Retry(3, 0.01, 0.02), on_retry=lambda e, n: tries.append(n))
        with self.assertRaises(ConnectionFailed) as caught:
            client.enqueue("q", 1)
        self.assertFalse(caught.exception.sent)
        self.assertEqual(tries, [1, 2])
        self.assertFalse(client.ready())

    def test_every_code_the_server_answers_has_a_class(self) -> None:
        sources = (REPO / "hourglass-server" / "src" / "main" / "java").rglob("*.java")
        codes = set()
        for path in sources:
            codes.update(re.findall(r'\b[45]\d\d,\s*"([a-z]+(?:_[a-z]+)*)"', path.read_text()))
        codes.discard("http_version_not_supported")  # Jetty's own answer to a protocol this client never speaks
        self.assertGreater(len(codes), 15)
        self.assertEqual(sorted(codes - set(ERRORS_BY_CODE)), [])

    def test_an_unknown_code_is_the_base_class(self) -> None:
        error = error_from_answer(418, {"error": {"code": "teapot", "message": "short and stout"}})
        self.assertIs(type(error), HourglassError)
        self.assertEqual((error.status, error.code, error.message), (418, "teapot", "short and stout"))
        bare = error_from_answer(502, "<html>bad gateway</html>")
        self.assertEqual((bare.status, bare.code), (502, "http_502"))


if __name__ == "__main__":
    unittest.main()

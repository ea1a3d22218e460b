"""The club's message queue (`OrderedRedisManager`) without Redis: what one process publishes
for a push, and what a process sends its own sockets for a message from the queue (the
text as published, each game's events in seq order, each once)."""

from __future__ import annotations

import itertools
import json

import pytest
from engineio import packet as eio_packet
from socketio import packet

from server.realtime.ordered import OrderedRedisManager
from server.realtime.sockets import JsonPacket


class FakeEio:
    def __init__(self) -> None:
        self._ids = itertools.count(1)

    def generate_id(self) -> str:
        return f"sid{next(self._ids)}"


class FakeServer:
    """What the manager asks of python-socketio's server: ids, the packet class, sending."""

    packet_class = JsonPacket

    def __init__(self) -> None:
        self.eio = FakeEio()
        self.sent: list[tuple[str, str]] = []  # (engine.io sid, encoded Socket.IO packet)

    def _send_eio_packet(self, eio_sid: str, pkt: eio_packet.Packet) -> None:
        assert pkt.packet_type == eio_packet.MESSAGE
        self.sent.append((eio_sid, pkt.data))


@pytest.fixture
def manager():
    m = OrderedRedisManager("redis://127.0.0.1:1/0", channel="test")
    m.set_server(FakeServer())
    m.published = []
    m._publish = m.published.append  # what would go to Redis
    for eio_sid, room in (("e1", "g1"), ("e2", "g1"), ("e3", "g2")):
        sid = m.connect(eio_sid, "/")
        m.enter_room(sid, "/", room)
    return m


def decoded(text: str) -> list:
    pkt = packet.Packet(encoded_packet=text)
    assert pkt.packet_type == packet.EVENT
    return pkt.data


def from_another_process(event: str, data: dict, room: str = "g1") -> dict:
    """A push as another process publishes it, after a trip through JSON."""
    other = OrderedRedisManager("redis://127.0.0.1:1/0", channel="test")
    other.set_server(FakeServer())
    other.published = []
    other._publish = other.published.append
    other.emit(event, data, room=room)
    (message,) = other.published
    return json.loads(json.dumps(message))


def event_push(seq: int) -> dict:
    return {"game_id": "g1", "event": {"seq": seq, "type": "move"}, "state": {"seq": seq}}


def test_a_push_is_encoded_once_sent_to_the_room_here_and_published_as_that_text(manager):
    data = {"game_id": "g1", "event": {"seq": 1, "type": "move"},
            "state": {"seq": 1, "board": [[0, 1], [2, 3]], "name": "Zoë \"Z\""}}
    manager.emit("event", data, room="g1")
    assert sorted(eio for eio, _ in manager.server.sent) == ["e1", "e2"]
    texts = {text for _, text in manager.server.sent}
    (message,) = manager.published
    assert texts == {message["packet"]}
    assert decoded(message["packet"]) == ["event", data]
    assert message["seq"] == 1 and message["room"] == "g1" and message["method"] == "emit"
    assert message["host_id"] == manager.host_id
    assert "data" not in message  # the tree itself does not travel


def test_a_push_from_another_process_reaches_only_this_rooms_sockets_as_published(manager):
    message = from_another_process("state", {"game_id": "g2", "state": {"seq": 4}}, room="g2")
    manager._handle_emit(message)
    assert manager.server.sent == [("e3", message["packet"])]
    assert decoded(message["packet"]) == ["state", {"game_id": "g2", "state": {"seq": 4}}]


def test_events_from_other_processes_go_out_in_seq_order_and_once(manager):
    first, second, third = (from_another_process("event", event_push(s)) for s in (1, 2, 3))
    manager._handle_emit(first)
    manager._handle_emit(third)  # early: waits for seq 2
    manager._handle_emit(second)
    manager._handle_emit(second)  # a repeat
    seqs = [decoded(text)[1]["event"]["seq"] for eio, text in manager.server.sent
            if eio == "e1"]
    assert seqs == [1, 2, 3]


def test_a_joined_socket_gets_no_event_its_answer_already_had(manager):
    manager.seen("g1", 2)
    for s in (2, 3):
        manager._handle_emit(from_another_process("event", event_push(s)))
    assert [decoded(t)[1]["event"]["seq"] for e, t in manager.server.sent if e == "e1"] == [3]


def test_pushes_with_an_acknowledgement_or_to_one_socket_go_python_socketios_way(manager):
    manager.emit("state", {"x": 1}, room="g1", skip_sid="sid1")
    (message,) = manager.published
    assert "packet" not in message and message["data"] == [{"x": 1}]
    assert [eio for eio, _ in manager.server.sent] == ["e2"]


def test_a_message_whose_packet_is_not_text_sends_nothing(manager):
    manager._handle_emit({"method": "emit", "event": "state", "namespace": "/", "room": "g1",
                          "packet": {"not": "text"}, "seq": None, "host_id": "x"})
    assert manager.server.sent == []


def test_other_processes_events_reach_the_service_in_seq_order_before_the_sockets(manager):
    learned: list[tuple[str, int, int]] = []  # (room, seq, packets sent before it)
    manager.on_remote_event.append(
        lambda room, body: learned.append((room, body["seq"], len(manager.server.sent))))
    manager.seen("g1", 0)  # a socket joined at seq 0
    first, second = (from_another_process("event", event_push(s)) for s in (1, 2))
    manager._handle_emit(second)
    manager._handle_emit(first)
    manager._handle_emit(from_another_process("state", {"game_id": "g1", "state": {}}))
    assert learned == [("g1", 1, 0), ("g1", 2, 2)]
    manager.emit("event", event_push(3), room="g1")  # this process's own: its table has it
    assert [seq for _, seq, _ in learned] == [1, 2]
    assert manager.published[-1]["body"] == event_push(3)["event"]

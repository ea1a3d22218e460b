"""Socket.IO: the rooms and pushes, and who is connected to which seat."""

"""The LAN: mDNS announcement and discovery."""

"""Durable state (``--state``): leases, journal, snapshots, the shared quota, take-over; the process stop."""

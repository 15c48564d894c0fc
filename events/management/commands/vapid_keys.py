"""Print a new VAPID key pair for Web Push (docs/notifications.md "Settings"): two lines to
put in the environment, ``VAPID_PUBLIC_KEY`` (the browser's application server key) and
``VAPID_PRIVATE_KEY`` (the raw P-256 private key pywebpush signs with), base64url."""

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    """``raw`` in base64url without padding (RFC 8292's encoding of the keys)."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """A new P-256 key pair as (public: the uncompressed point, private: the 32-byte
    scalar), both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)."

    def handle(self, *args, **options):
        public, private = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")

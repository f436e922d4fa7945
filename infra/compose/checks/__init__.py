"""Static checks of the ops files, run by ../check_ops.py (docs/compose-and-kubernetes.md)."""

"""The fast path to the wire, each piece beside its plain twin and tested equal to it: the
hand-written state writer, the per-step send cache, WebSocket frames made by hand, and every use
of websockets' undocumented internals."""

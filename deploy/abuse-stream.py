"""Endless PDN streams for deploy/abuse-test.sh: CONNECTIONS connections to each replica port
POST /v1/judge/pdn with `Accept: application/x-ndjson` and a chunked body that never ends, for
SECONDS: half of them send a game every 250 ms, the other half a byte every 50 ms. The answers
are read as they come. Prints, per connection, "ABUSESTREAM port=P mode=M status=S sent=BYTES
games=LINES ended=0|1 error=-|TEXT" (ended: the server ended the answer before the client
stopped sending).

    python3 deploy/abuse-stream.py SECONDS CONNECTIONS PORT...
"""
import socket
import sys
import threading
import time

seconds, connections, ports = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
GAME = b'[Event "stream"]\n[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
HEAD = (b"POST /v1/judge/pdn HTTP/1.1\r\nHost: abuse\r\nContent-Type: text/plain\r\n"
        b"Accept: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n")
lock = threading.Lock()


def chunk(data):
    return b"%x\r\n%s\r\n" % (len(data), data)


def stream(port, mode):
    r = {"port": port, "mode": mode, "status": "-", "sent": 0, "games": 0, "ended": 0,
         "error": "-"}
    stop = threading.Event()
    received = bytearray()

    def read(sock):
        while True:
            try:
                data = sock.recv(65536)
            except OSError as e:
                if not stop.is_set():
                    r["error"] = f"read:{type(e).__name__}"
                return
            if not data:
                if not stop.is_set():
                    r["ended"] = 1
                return
            received.extend(data)
            r["games"] = received.count(b'{"index":')

    try:
        sock = socket.create_connection(("127.0.0.1", int(port)), timeout=30)
        sock.sendall(HEAD)
        reader = threading.Thread(target=read, args=(sock,), daemon=True)
        reader.start()
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end and r["ended"] == 0:
            if mode == "games":
                data = GAME
                pause = 0.25
            else:
                data = GAME[i % len(GAME):i % len(GAME) + 1]
                pause = 0.05
            sock.sendall(chunk(data))
            r["sent"] += len(data)
            i += 1
            time.sleep(pause)
        stop.set()
        sock.close()
    except OSError as e:
        r["error"] = f"{type(e).__name__}"
    head = bytes(received[:64])
    if head.startswith(b"HTTP/1.1 "):
        r["status"] = head.split(b" ")[1].decode()
    with lock:
        print("ABUSESTREAM " + " ".join(f"{k}={v}" for k, v in r.items()), flush=True)


threads = [threading.Thread(target=stream, args=(port, "games" if n % 2 == 0 else "bytes"))
           for port in ports for n in range(connections)]
for t in threads:
    t.start()
for t in threads:
    t.join()

#!/usr/bin/env bash
# Starts and stops the real S3 servers the S3 tests run against, on 127.0.0.1.
#
#   s3_test_server.sh start moto|rgw DIR   prints "http://127.0.0.1:PORT" when ready
#   s3_test_server.sh stop DIR             stops what start left running in DIR
#   s3_test_server.sh stop-rgw-gateway DIR / start-rgw-gateway DIR
#                                          stops / restarts only radosgw (the
#                                          cluster keeps its data), for tests of
#                                          a server that goes away mid-request
#
# moto (moto_server) is in-memory and does not check signatures: quick tests.
# Ceph RGW is a production object store: a one-mon, one-OSD (memstore)
# throwaway cluster, recipe and traps in ../shared/tools/ORACLES.md. Both
# accept the access key "floe-test" / secret "floe-test-secret"; RGW also
# has a second account "floe-other" / "floe-other-secret".
# Every process started is recorded in DIR/*.pid and stopped by its pid.
set -euo pipefail

cmd=${1:?start|stop}
kind=${2:-}
if [ "$cmd" = stop ] || [ "$cmd" = stop-rgw-gateway ] || [ "$cmd" = start-rgw-gateway ]; then dir=${2:?dir}; else dir=${3:?dir}; fi
mkdir -p "$dir"
access_key=floe-test
secret_key=floe-test-secret

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_http() {  # url seconds
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    if curl -s -o /dev/null "$1"; then return 0; fi
    sleep 0.1
  done
  return 1
}

stop_pidfile() {
  local f=$1
  [ -f "$f" ] || return 0
  local pid
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

start_rgw_gateway() {
  local port
  port=$(cat "$dir/rgw.port")
  radosgw -c "$dir/ceph.conf" -n client.rgw --foreground >"$dir/log/radosgw.out" 2>&1 &
  echo $! >"$dir/radosgw.pid"
  if ! wait_http "http://127.0.0.1:$port/" 60; then
    echo "s3_test_server: radosgw did not answer on port $port; see $dir/log" >&2
    exit 1
  fi
}

case "$cmd" in
  start)
    case "$kind" in
      moto)
        moto=$(command -v moto_server || true)
        repo_moto="$(cd "$(dirname "$0")/../.." && pwd)/dev/tools/moto/bin/moto_server"
        [ -n "$moto" ] || [ ! -x "$repo_moto" ] || moto=$repo_moto
        [ -n "$moto" ] || { echo "s3_test_server: moto_server not found: run make setup" >&2; exit 1; }
        port=$(free_port)
        "$moto" -H 127.0.0.1 -p "$port" >"$dir/moto.log" 2>&1 &
        echo $! >"$dir/moto.pid"
        wait_http "http://127.0.0.1:$port/" 30 || { echo "s3_test_server: moto did not start; see $dir/moto.log" >&2; exit 1; }
        echo "http://127.0.0.1:$port"
        ;;
      rgw)
        for b in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
          command -v $b >/dev/null || { echo "s3_test_server: $b not found: run dev/setup" >&2; exit 1; }
        done
        mkdir -p "$dir/mon" "$dir/osd" "$dir/run" "$dir/log"
        mon_port=$(free_port)
        port=$(free_port)
        echo "$port" >"$dir/rgw.port"
        fsid=$(cat /proc/sys/kernel/random/uuid)
        cat >"$dir/ceph.conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
mon data avail crit = 0
mon allow pool size one = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 2147483648
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
[mon.a]
mon data = $dir/mon
public addr = v2:127.0.0.1:$mon_port
[osd.0]
osd data = $dir/osd
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw dns name = localhost
rgw thread pool size = 64
CONF
        monmaptool --create --addv a "[v2:127.0.0.1:$mon_port]" --fsid "$fsid" "$dir/monmap" >/dev/null
        ceph-mon -c "$dir/ceph.conf" -i a --mkfs --monmap "$dir/monmap" >"$dir/log/mkfs.out" 2>&1
        ceph-mon -c "$dir/ceph.conf" -i a --foreground >"$dir/log/mon.out" 2>&1 &
        echo $! >"$dir/mon.pid"
        osd_uuid=$(cat /proc/sys/kernel/random/uuid)
        timeout 60 ceph -c "$dir/ceph.conf" osd new "$osd_uuid" 0 >/dev/null
        ceph-osd -c "$dir/ceph.conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >"$dir/log/osd-mkfs.out" 2>&1
        ceph-osd -c "$dir/ceph.conf" -i 0 --foreground >"$dir/log/osd.out" 2>&1 &
        echo $! >"$dir/osd.pid"
        start_rgw_gateway
        timeout 60 radosgw-admin -c "$dir/ceph.conf" user create --uid=floe --display-name=floe \
          --access-key="$access_key" --secret-key="$secret_key" >/dev/null
        # A second account, for access-denied tests on the first one's buckets.
        timeout 60 radosgw-admin -c "$dir/ceph.conf" user create --uid=other --display-name=other \
          --access-key=floe-other --secret-key=floe-other-secret >/dev/null
        echo "http://127.0.0.1:$port"
        ;;
      *) echo "s3_test_server: unknown server '$kind' (moto or rgw)" >&2; exit 2 ;;
    esac
    ;;
  stop)
    stop_pidfile "$dir/moto.pid"
    stop_pidfile "$dir/radosgw.pid"
    stop_pidfile "$dir/osd.pid"
    stop_pidfile "$dir/mon.pid"
    ;;
  stop-rgw-gateway) stop_pidfile "$dir/radosgw.pid" ;;
  start-rgw-gateway) start_rgw_gateway ;;
  *) echo "s3_test_server: unknown command '$cmd'" >&2; exit 2 ;;
esac

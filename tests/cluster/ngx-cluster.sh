# ngx-cluster.sh: sourced by cluster.sh and bench/cluster-load.sh. Starts
# nginx with the shipped upstream and WebSocket location of
# deploy/nginx/oware-rooms-cluster.conf (a consistent hash of the room id),
# in a plain-http server on 127.0.0.1, in front of three servers.
# ngx_start DIR NGINX_PORT P1 P2 P3 TIMEOUT: nginx's pid in $npid; the
# WebSocket location's timeouts set to TIMEOUT (15s as shipped);
# NGX_WORKERS worker processes (1), each taking up to 19000 connections.
# Calls
# bad() (the caller's) for a shipped file that changed shape; returns 1
# when nginx does not start.
ngx_start() {
	ndir=$1 np=$2 timeout=$6
	conf=deploy/nginx/oware-rooms-cluster.conf
	# The map and upstream blocks as shipped (our ports in the server lines),
	# and the WebSocket location as shipped.
	blocks=$(awk '/^map /,/^}/; /^upstream oware_cluster/,/^}/' "$conf" |
		awk -v a="$3" -v b="$4" -v c="$5" '
			/^ *server 127\.0\.0\.1:808[123]/ { n++; sub(/127\.0\.0\.1:808[123]/, "127.0.0.1:" (n == 1 ? a : n == 2 ? b : c)) }
			{ print }')
	ws=$(awk '/location = \/ws \{/,/^    \}/' "$conf")
	for d in proxy_read_timeout proxy_send_timeout; do
		echo "$ws" | grep -q "^ *$d 15s;" || bad "the shipped WebSocket location has no $d 15s"
	done
	ws=$(echo "$ws" | sed -E "s/^( *proxy_(read|send)_timeout) 15s;/\1 $timeout;/")
	echo "$ws" | grep -q 'proxy_next_upstream error timeout;' || bad "the shipped WebSocket location does not try the next server after a timeout"
	echo "$blocks" | grep -q 'hash $oware_route consistent;' || bad "the shipped upstream has no consistent hash"
	[ "$(echo "$blocks" | grep -c "server 127.0.0.1:")" = 3 ] || bad "the shipped upstream does not list three servers"
	mkdir -p "$ndir/logs" "$ndir/tmp"
	cat >"$ndir/nginx.conf" <<NGX
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes ${NGX_WORKERS:-1};
daemon off;
pid $ndir/nginx.pid;
error_log $ndir/logs/error.log warn;
worker_rlimit_nofile 20000;
events { worker_connections 19000; }
http {
  access_log off;
  client_body_temp_path $ndir/tmp/body;
  proxy_temp_path $ndir/tmp/proxy;
  fastcgi_temp_path $ndir/tmp/fastcgi;
  uwsgi_temp_path $ndir/tmp/uwsgi;
  scgi_temp_path $ndir/tmp/scgi;
$blocks
  server {
    listen 127.0.0.1:$np;
$ws
  }
}
NGX
	/usr/sbin/nginx -p "$ndir" -c "$ndir/nginx.conf" 2>"$ndir/stderr" &
	npid=$!
	i=0
	until curl -s -o /dev/null "http://127.0.0.1:$np/"; do
		i=$((i + 1))
		if [ $i -gt 50 ]; then
			cat "$ndir/stderr" "$ndir/logs/error.log"
			return 1
		fi
		sleep 0.1
	done
}

#!/bin/sh
# build-image.sh: builds deploy/Containerfile from the working tree with
# podman, as the image `oware-rooms:test`, without any registry: when no
# debian:12 image is at hand, one is made from Debian's packages with
# mmdebstrap and imported under the name `FROM debian:12` resolves to.
# Usage: tests/container/build-image.sh   (from the top folder)
set -eu
base=docker.io/library/debian:12
tag=${IMAGE:-localhost/oware-rooms:test}
work=${BUILD:-build}/container
mkdir -p "$work"

if ! podman image exists "$base"; then
	echo "build-image: making $base with mmdebstrap" >&2
	# merged-usr by a hook, as Debian's own images are, rather than the
	# usrmerge package (which would pull perl into every layer above).
	mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
		bookworm "$work/base.tar"
	podman import --quiet "$work/base.tar" "$base" >/dev/null
	rm -f "$work/base.tar"
fi

# chroot isolation: the default one needs cgroups these machines may not
# give; docker format: the OCI one drops the HEALTHCHECK.
podman build --quiet --isolation=chroot --pull=never --format docker \
	-f deploy/Containerfile -t "$tag" . >/dev/null
# The build stage is of no use once the image exists (one that another
# build still uses stays).
podman image prune -f --filter label=org.oware-rooms.stage=build >/dev/null 2>&1 || true

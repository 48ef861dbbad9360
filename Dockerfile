# syntax=docker/dockerfile:1
# The citeproof HTTP service (`citeproof serve`, docs/serve.md) as an OCI image:
#
#   docker build -t citeproof .                     # compiles citeproof from this checkout
#   docker run --rm -p 8080:8080 -v citeproof-cache:/var/cache/citeproof citeproof
#
# The release workflow passes BINARY=prebuilt with the release's static binaries in
# dist/docker/<arch>/citeproof, so nothing is compiled twice (or under emulation).
# The binary is static (musl): the runtime image needs only CA certificates, and
# busybox's wget for the health check.

ARG BINARY=source

# Stage 1 (BINARY=source): build the static binary from source, as the release does.
FROM rust:1.95-bookworm AS binary-source
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN target="$(uname -m)-unknown-linux-musl" \
    && rustup target add "$target" \
    && cargo build --locked --profile dist --bin citeproof --target "$target" \
    && install -D -m 755 "target/$target/dist/citeproof" /out/citeproof

# Stage 1 (BINARY=prebuilt): the release's binary for the platform being built.
FROM alpine:3.22 AS binary-prebuilt
ARG TARGETARCH
COPY dist/docker/${TARGETARCH}/citeproof /out/citeproof

# The stage BINARY names (hadolint takes it for an untagged image).
# hadolint ignore=DL3006
FROM binary-${BINARY} AS binary

# Stage 2: the runtime, as a user without privileges.
FROM alpine:3.22
# hadolint ignore=DL3018
RUN apk add --no-cache ca-certificates \
    && adduser -D -H -u 10001 -s /sbin/nologin citeproof \
    && install -d -o citeproof -g citeproof /var/cache/citeproof
COPY --from=binary --chmod=755 /out/citeproof /usr/local/bin/citeproof
COPY LICENSE-MIT LICENSE-APACHE THIRD-PARTY-NOTICES.md /usr/share/doc/citeproof/
USER 10001:10001
# The resolution cache (and a sentence model fetched into it): keep it in a volume.
ENV CITEPROOF_CACHE_DIR=/var/cache/citeproof
VOLUME ["/var/cache/citeproof"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["citeproof"]
CMD ["serve", "--listen", "0.0.0.0:8080"]

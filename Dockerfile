# syntax=docker/dockerfile:1
# Arbiter: build with the official Rust image, run as non-root on distroless.
#   docker build -t arbiter:0.1.0 .
#   docker run --rm -p 8080:8080 arbiter:0.1.0
# With prebuilt endgame tables (variant:pieces, space-separated; docs/endgame.md gives the
# time and size of each), in the image and as an image of their own for a volume (k8s/):
#   docker build --build-arg TABLES="english:5 international:4" -t arbiter:0.1.0 .
#   docker build --build-arg TABLES="english:5 international:4" --target tables \
#       -t arbiter-tables:0.1.0 .

FROM rust:1-bookworm AS build
WORKDIR /src
# Fetch dependencies first (cached layer while Cargo.lock is unchanged).
COPY Cargo.toml Cargo.lock ./
COPY rules/Cargo.toml rules/Cargo.toml
# The workspace's Python package (python/) is a member: its manifest too, though the image
# builds the binary alone.
COPY python/Cargo.toml python/Cargo.toml
RUN mkdir -p src rules/src python/src benches \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs rules/src/lib.rs python/src/lib.rs \
    && for b in perft requests tables; do echo 'fn main() {}' > "benches/$b.rs"; done \
    && cargo fetch --locked
COPY . .
RUN cargo build --release --locked --bin arbiter \
    && install -m 0755 target/release/arbiter /usr/local/bin/arbiter
# Endgame tables to ship prebuilt, e.g. "english:5 international:4"; none by default (tables
# of up to ARBITER_TABLES_BUILTIN_PIECES pieces are computed on first use anyway).
ARG TABLES=""
RUN set -e; mkdir -p /tables; \
    for spec in ${TABLES}; do \
        arbiter tables build --variant "${spec%%:*}" --pieces "${spec##*:}" --out /tables; \
    done

# The tables alone, for an image volume (k8s/overlays/image-volume/).
FROM scratch AS tables
COPY --from=build /tables /

FROM gcr.io/distroless/cc-debian12:nonroot
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="arbiter" \
      org.opencontainers.image.description="Arbiter: a stateless REST rules referee for draughts and its cousins" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0"
COPY --from=build /usr/local/bin/arbiter /usr/local/bin/arbiter
COPY --from=build /tables /usr/share/arbiter/tables
# distroless "nonroot": uid/gid 65532, no shell. Logs as JSON for the cluster's collector.
USER 65532:65532
ENV ARBITER_ADDR=0.0.0.0:8080 \
    ARBITER_LOG_FORMAT=json \
    ARBITER_TABLES_DIR=/usr/share/arbiter/tables
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/arbiter"]
CMD ["serve"]

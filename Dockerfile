# syntax=docker/dockerfile:1
# Arbiter: build with the official Rust image, run as non-root on distroless.
#   docker build -t arbiter:0.1.0 .
#   docker run --rm -p 8080:8080 arbiter:0.1.0

FROM rust:1-bookworm AS build
WORKDIR /src
# Fetch dependencies first (cached layer while Cargo.lock is unchanged).
COPY Cargo.toml Cargo.lock ./
COPY rules/Cargo.toml rules/Cargo.toml
RUN mkdir -p src rules/src benches \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs rules/src/lib.rs \
    && echo 'fn main() {}' > benches/perft.rs \
    && cargo fetch --locked
COPY . .
RUN cargo build --release --locked --bin arbiter \
    && install -m 0755 target/release/arbiter /usr/local/bin/arbiter

FROM gcr.io/distroless/cc-debian12:nonroot
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="arbiter" \
      org.opencontainers.image.description="Arbiter: a stateless REST rules referee for draughts and its cousins" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0"
COPY --from=build /usr/local/bin/arbiter /usr/local/bin/arbiter
# distroless "nonroot": uid/gid 65532, no shell. Logs as JSON for the cluster's collector.
USER 65532:65532
ENV ARBITER_ADDR=0.0.0.0:8080 \
    ARBITER_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/arbiter"]
CMD ["serve"]

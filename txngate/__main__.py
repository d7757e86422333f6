"""``python -m txngate``: the ``txngate`` command (worker processes start so)."""

import sys

from txngate.cli import main

sys.exit(main())

"""The chosen zoo's figures, one command: ``.venv-chosen/bin/python bench/chosen/figures.py``
(``--help`` for its options). What it does is ``chosen_figures.py``'s docstring; this file only
runs it (the type checker knows ``figures`` as ``bench/figures.py``, so it leaves this one out).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chosen_figures import main

if __name__ == "__main__":
    main(sys.argv[1:])

"""Asking the client mid-call: questions to the user, its model and its roots.

``questions`` (several questions at once, and the keys that name them), ``elicit`` (the
form sent and what the answer means) and ``sampling`` (the client's model and roots).
"""

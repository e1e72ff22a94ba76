"""The search benchmark's requests for ``sklearn.metrics``: written from its documentation (the
docstrings of the sampled functions and of ``pairwise_distances_argmin_min``,
``classification_report``, ``check_scoring``, ``d2_log_loss_score``, ``mean_squared_log_error``
and ``mean_tweedie_deviance``; the scikit-learn user guide on metrics and scoring known), before
any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "sklearn.metrics"

REQUESTS: tuple[Request, ...] = (
    Request("quantile regression loss", "terse", ("mean_pinball_loss",)),
    Request(
        "For each point in one set I need the index of the nearest point in another set.",
        "sentence",
        ("pairwise_distances_argmin", "pairwise_distances_argmin_min"),
    ),
    Request(
        "unadjusted shared information in nats between two clusterings of the same samples",
        "jargon",
        ("mutual_info_score",),
    ),
    Request(
        "score my price guesses so guessing double the real price is as bad as guessing half",
        "layman",
        ("root_mean_squared_log_error", "mean_squared_log_error"),
    ),
    Request(
        "of everything my clasifier flagged as positive, what fraction was realy positive",
        "typos",
        ("precision_score",),
    ),
    Request("accuracy for skewed class distribution", "terse", ("balanced_accuracy_score",)),
    Request(
        "I want to rate my k-means clustering by the ratio of between-cluster to within-cluster"
        " spread.",
        "sentence",
        ("calinski_harabasz_score",),
    ),
    Request(
        "quadratic mean of the residuals, in the target's units",
        "jargon",
        ("root_mean_squared_error",),
    ),
    Request(
        "per category: how often its picks were right, how many real ones it caught, and how many"
        " there were",
        "layman",
        ("precision_recall_fscore_support", "classification_report"),
    ),
    Request(
        "score clusterings by each point's distance to its own cluster versus the nearst other one,"
        " averagd",
        "typos",
        ("silhouette_score",),
    ),
    Request("fraction of correct predictions", "terse", ("accuracy_score",)),
    Request(
        "I need the average margin-based loss of an SVM's decision function values against the true"
        " labels.",
        "sentence",
        ("hinge_loss",),
    ),
    Request(
        "resolve a scoring string like 'roc_auc' to the callable that cross-validation uses",
        "jargon",
        ("get_scorer", "check_scoring"),
    ),
    Request(
        "how much better my rain-chance forecasts are than always guessing the usual rate,"
        " judged by squared misses",
        "layman",
        ("d2_brier_score",),
    ),
    Request(
        "deviance loss for strictly positve claim amounts that is unchanged when the targt is"
        " rescaled",
        "typos",
        ("mean_gamma_deviance", "mean_tweedie_deviance"),
    ),
)

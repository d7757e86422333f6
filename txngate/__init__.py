"""txngate: the composition root. Configuration (``config``), structured
logging (``log``) and the command line (``cli``) live here; everything else
lives in the layer packages (gateway, planner, local_exec, spark_exec,
storage)."""

__version__ = "0.1.0"

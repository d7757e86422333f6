from django.db import models

class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(unique=True)
    joined = models.DateTimeField(auto_now_add=True)
    data = models.JSONField(default=dict)

class Order(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="orders")
    total = models.DecimalField(max_digits=10, decimal_places=2)
    status = models.CharField(max_length=20, default="new", db_index=True)
    # GENERATED ALWAYS AS ("total" * 100) STORED, read back by INSERT ... RETURNING
    cents = models.GeneratedField(expression=models.F("total") * 100, output_field=models.DecimalField(max_digits=12, decimal_places=0),
                                  db_persist=True)
    class Meta:
        indexes = [models.Index(fields=["customer", "status"], name="order_cust_status")]

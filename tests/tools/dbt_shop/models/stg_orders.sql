select id, customer_id, cast(amount as numeric(10, 2)) as amount, status, ordered_at
from {{ ref('orders') }}
where status <> 'returned'
